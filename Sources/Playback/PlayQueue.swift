import SystemPackage

/// The files to play (and the song from standard input, if it was piped in), in order, and which
/// one is playing.
///
/// A value: the player owns one, and snapshots of it are what the resume
/// state records.
public struct PlayQueue: Hashable, Sendable {
    public enum RepeatMode: String, Hashable, Sendable, CaseIterable {
        case off, one, all
    }

    /// The items in the order they were queued.
    public private(set) var items: [QueueItem]
    /// The order of play: indices into `items` (shuffled or not).
    public private(set) var order: [Int]
    /// The place in `order` of the file playing; `order.count` once the queue has run out.
    public private(set) var place: Int
    public var repeatMode: RepeatMode
    /// Whether the order was shuffled (a shuffle may happen to leave a short queue in its own order).
    public private(set) var isShuffled: Bool

    public init(items: [QueueItem], repeatMode: RepeatMode = .off, shuffleSeed: UInt64? = nil) {
        self.items = items
        self.repeatMode = repeatMode
        order = Array(items.indices)
        place = 0
        isShuffled = shuffleSeed != nil
        if let shuffleSeed {
            var generator = SplitMix64(seed: shuffleSeed)
            order.shuffle(using: &generator)
        }
    }

    /// A queue of files, the usual one: the browser's, a search's, most of the command line's.
    public init(files: [FilePath], repeatMode: RepeatMode = .off, shuffleSeed: UInt64? = nil) {
        self.init(items: files.map(QueueItem.file), repeatMode: repeatMode, shuffleSeed: shuffleSeed)
    }

    /// A queue as it was saved (of files: a song from standard input is not saved): `order` must
    /// be a permutation of `files`' indices (otherwise the files play in their own order), `place`
    /// is clamped to it.
    public init(files: [FilePath], order: [Int], place: Int, repeatMode: RepeatMode = .off) {
        items = files.map(QueueItem.file)
        self.repeatMode = repeatMode
        self.order = order.sorted() == Array(items.indices) ? order : Array(items.indices)
        self.place = min(max(0, place), items.count)
        isShuffled = self.order != Array(items.indices)
    }

    /// The items as files; nil when one is the song from standard input, which no file holds.
    public var files: [FilePath]? {
        let files = items.compactMap(\.file)
        return files.count == items.count ? files : nil
    }

    /// Shuffles the queue, the file playing first and the others after it in an order drawn from
    /// `seed`; or puts it back in the order the files were queued in, at the file playing.
    public mutating func setShuffled(_ shuffled: Bool, seed: UInt64) {
        let playing = place < order.count ? order[place] : nil
        isShuffled = shuffled
        if shuffled {
            var generator = SplitMix64(seed: seed)
            order = (playing.map { [$0] } ?? []) + items.indices.filter { $0 != playing }.shuffled(using: &generator)
            place = playing == nil ? order.count : 0
        } else {
            order = Array(items.indices)
            place = playing ?? order.count
        }
    }

    /// The item playing, or `nil` once the queue has run out.
    public var current: QueueItem? { place < order.count ? items[order[place]] : nil }

    /// After a file ends by itself: the same file again with repeat one, the
    /// next, or the first again with repeat all. Returns whether there is one.
    @discardableResult
    public mutating func advanceAfterEnd() -> Bool {
        if repeatMode == .one, current != nil { return true }
        return next()
    }

    /// Skips to the next file (wrapping with repeat all). Returns whether there is one.
    @discardableResult
    public mutating func next() -> Bool {
        guard !order.isEmpty else { return false }
        if place + 1 < order.count {
            place += 1
        } else if repeatMode == .all {
            place = 0
        } else {
            place = order.count
            return false
        }
        return true
    }

    /// Within the first seconds of a file, goes back one file; later, the
    /// caller restarts the file. Returns whether the place changed.
    public mutating func previous(elapsedSeconds: Double, restartThreshold: Double = 3) -> Bool {
        guard elapsedSeconds < restartThreshold, !order.isEmpty else { return false }
        if place > 0 {
            place = min(place, order.count) - 1
        } else if repeatMode == .all {
            place = order.count - 1
        } else {
            return false
        }
        return true
    }

    /// Adds items at the end of the queue (after any shuffled order).
    public mutating func append(_ added: [QueueItem]) {
        let wasAtEnd = place >= order.count
        order += items.count..<items.count + added.count
        items += added
        if wasAtEnd { place = min(place, order.count - added.count) }
    }

    /// Removes a file that cannot be played, keeping the place on the file after it.
    public mutating func removeCurrent() {
        remove(place: place)
    }

    /// Removes the file at a place in the order; the current file stays current.
    public mutating func remove(place removedPlace: Int) {
        guard removedPlace < order.count else { return }
        let removed = order.remove(at: removedPlace)
        items.remove(at: removed)
        order = order.map { $0 > removed ? $0 - 1 : $0 }
        if removedPlace < place { place -= 1 }
        if place >= order.count, repeatMode == .all, !order.isEmpty { place = 0 }
    }

    /// Starts at a given position in `order`, as when resuming.
    public mutating func move(toPlace newPlace: Int) {
        place = min(max(0, newPlace), order.count)
    }
}

/// A small seeded generator, so that a shuffled queue can be reproduced (and resumed).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
