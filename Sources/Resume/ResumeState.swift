import Files
import Library
import SystemPackage

/// Where the player was, so that the next `smfplay play` can go on from there: the queue, and the
/// place in it and the position in the file playing.
///
/// Stored by ``ResumeStore`` in two parts that change at different rates: the queue (written once
/// when it changes, however long) and the ``Position`` (a few numbers, written every second while
/// the music plays). Paths inside the library are relative to it (see ``LibraryPath``), so the
/// state survives moving the library.
public struct ResumeState: Hashable, Sendable {
    /// How far the player was: the same size whatever the queue.
    public struct Position: Hashable, Sendable {
        /// The place in `order` of the file playing; `order.count` when the queue had run out.
        public var place: Int
        public var seconds: Double
        /// The same place in the file's own ticks, which stay exact where seconds are rounded.
        public var ticks: Int
        /// The file playing as it was when the position was taken: a file edited or replaced since
        /// starts from the beginning instead.
        public var file: FileStamp?

        public init(place: Int, seconds: Double, ticks: Int, file: FileStamp?) {
            self.place = place
            self.seconds = seconds
            self.ticks = ticks
            self.file = file
        }
    }

    /// The library folder when the state was saved, tried for files inside the library that are
    /// not under the library folder of now.
    public var libraryRoot: FilePath
    /// The queue's files in the order they were queued.
    public var queue: [LibraryPath]
    /// The order of play: indices into `queue`, shuffled or not.
    public var order: [Int]
    /// `PlayQueue.RepeatMode`'s raw value: "off", "one" or "all".
    public var repeatMode: String
    public var shuffled: Bool
    public var position: Position

    /// `files` are paths as the player has them (absolute, or relative to the working directory);
    /// those inside `libraryRoot` are stored relative to it.
    public init(libraryRoot: FilePath, files: [FilePath], order: [Int], repeatMode: String, shuffled: Bool, position: Position) {
        self.init(
            libraryRoot: libraryRoot, queue: files.map { LibraryPath($0, libraryRoot: libraryRoot) },
            order: order, repeatMode: repeatMode, shuffled: shuffled, position: position)
    }

    public init(libraryRoot: FilePath, queue: [LibraryPath], order: [Int], repeatMode: String, shuffled: Bool, position: Position) {
        self.libraryRoot = libraryRoot
        self.queue = queue
        self.order = order
        self.repeatMode = repeatMode
        self.shuffled = shuffled
        self.position = position
    }

    /// The queue's files under the library folder of now: a library file is looked for under
    /// `libraryRoot`, then (if it is not there) under the folder it was saved with, names matched
    /// across Unicode normalizations.
    public func files(libraryRoot currentRoot: FilePath) -> [FilePath] {
        queue.map { locate($0, libraryRoot: currentRoot) }
    }

    /// The file playing when the state was saved, or the last one if the queue had run out,
    /// located as ``files(libraryRoot:)`` locates each.
    public func lastPlayedFile(libraryRoot currentRoot: FilePath) -> FilePath? {
        let index = position.place < order.count ? order[position.place] : order.last
        return index.map { locate(queue[$0], libraryRoot: currentRoot) }
    }

    /// Whether the queue had played to its end.
    public var hasEnded: Bool { position.place >= order.count }

    /// The file that was playing, as stored; nil when the queue had run out.
    public var current: LibraryPath? {
        position.place < order.count ? queue[order[position.place]] : nil
    }

    private func locate(_ path: LibraryPath, libraryRoot currentRoot: FilePath) -> FilePath {
        let current = path.located(in: currentRoot)
        guard case .inLibrary = path, FileStamp(ofFileAt: current) == nil else { return current }
        let saved = path.located(in: libraryRoot)
        return FileStamp(ofFileAt: saved) == nil ? current : saved
    }

    /// What makes the queue unusable, in a few words; nil when it is whole.
    var queueProblem: String? {
        if !libraryRoot.isAbsolute { return "the library folder is not an absolute path" }
        if order.sorted() != Array(queue.indices) { return "the order is not an arrangement of the queue's \(queue.count) files" }
        if !["off", "one", "all"].contains(repeatMode) { return "the repeat mode \"\(repeatMode)\" is none of off, one, all" }
        return nil
    }

    /// What makes a position unusable for this queue; nil when it fits.
    func problem(with position: Position) -> String? {
        if !(0...order.count).contains(position.place) { return "place \(position.place) is outside the queue of \(order.count) files" }
        if !position.seconds.isFinite || position.seconds < 0 || position.ticks < 0 { return "the position is negative or not a number" }
        if let file = position.file, file.size < 0 { return "the file size is negative" }
        return nil
    }

    /// What makes the whole state unusable; nil when it is whole.
    var problem: String? { queueProblem ?? problem(with: position) }
}
