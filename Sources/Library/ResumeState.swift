/// Where the player was, so that the next `smfplay play` can go on from there: the
/// queue, the place in it and the position in the file playing.
///
/// Stored by ``ResumeStore`` as pretty JSON with sorted keys, readable and stable
/// enough to diff. Paths inside the library are relative to it (see
/// ``LibraryPath``), so the state survives moving the library.
public struct ResumeState: Codable, Hashable, Sendable {
    /// The only format this version reads and writes. A format that changes the
    /// meaning of a key gets a new number.
    public static let currentVersion = 1

    /// How far into the file playing.
    public struct Position: Codable, Hashable, Sendable {
        public var seconds: Double
        /// The same place in the file's own ticks, which stay exact where seconds
        /// are rounded, and which a seek can use without the tempo map.
        public var ticks: Int

        public init(seconds: Double, ticks: Int) {
            self.seconds = seconds
            self.ticks = ticks
        }
    }

    public var version: Int
    /// The library folder when the state was saved, tried for files inside the
    /// library that are not under the library folder of now.
    public var libraryRoot: String
    /// The queue's files in the order they were queued.
    public var queue: [LibraryPath]
    /// The order of play: indices into `queue`, shuffled or not.
    public var order: [Int]
    /// The place in `order` of the file playing; `order.count` when the queue had run out.
    public var place: Int
    public var position: Position
    /// The file playing as it was when the position was taken: a file edited or
    /// replaced since starts from the beginning instead.
    public var file: FileStamp?
    /// `PlayQueue.RepeatMode`'s raw value: "off", "one" or "all".
    public var repeatMode: String
    public var shuffled: Bool

    /// `files` are paths as the player has them (absolute, or relative to the
    /// working directory); those inside `libraryRoot` are stored relative to it.
    public init(
        libraryRoot: String, files: [String], order: [Int], place: Int, position: Position,
        file: FileStamp?, repeatMode: String, shuffled: Bool
    ) {
        version = Self.currentVersion
        self.libraryRoot = libraryRoot
        queue = files.map { LibraryPath($0, libraryRoot: libraryRoot) }
        self.order = order
        self.place = place
        self.position = position
        self.file = file
        self.repeatMode = repeatMode
        self.shuffled = shuffled
    }

    /// The queue's files under the library folder of now: a library file is looked
    /// for under `libraryRoot`, then (if it is not there) under the folder it was
    /// saved with, names matched across Unicode normalizations.
    public func files(libraryRoot currentRoot: String) -> [String] {
        queue.map { locate($0, libraryRoot: currentRoot) }
    }

    /// The file playing when the state was saved, or the last one if the queue had run out,
    /// located as ``files(libraryRoot:)`` locates each.
    public func lastPlayedFile(libraryRoot currentRoot: String) -> String? {
        let index = place < order.count ? order[place] : order.last
        return index.map { locate(queue[$0], libraryRoot: currentRoot) }
    }

    /// Whether the queue had played to its end.
    public var hasEnded: Bool { place >= order.count }

    private func locate(_ path: LibraryPath, libraryRoot currentRoot: String) -> String {
        let current = path.located(in: currentRoot)
        guard case .inLibrary = path, FileStamp(ofFileAt: current) == nil else { return current }
        let saved = path.located(in: libraryRoot)
        return FileStamp(ofFileAt: saved) == nil ? current : saved
    }

    /// The file that was playing, as stored; nil when the queue had run out.
    public var current: LibraryPath? {
        place < order.count ? queue[order[place]] : nil
    }

    /// What makes a decoded state unusable, in a few words; nil when it is whole.
    var problem: String? {
        if version != Self.currentVersion { return "format version \(version), but this smfplay reads version \(Self.currentVersion)" }
        if !libraryRoot.hasPrefix("/") { return "libraryRoot is not an absolute path" }
        if order.sorted() != Array(queue.indices) { return "order is not an arrangement of the queue's \(queue.count) files" }
        if !(0...order.count).contains(place) { return "place \(place) is outside the queue of \(order.count) files" }
        if !position.seconds.isFinite || position.seconds < 0 || position.ticks < 0 { return "position is negative or not a number" }
        if let file, file.size < 0 { return "file size is negative" }
        return nil
    }
}
