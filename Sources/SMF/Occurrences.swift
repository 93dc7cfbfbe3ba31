/// How many times something unusual happens in a track, and where first: a
/// track full of it gives one warning, not one per event.
struct Occurrences {
    private(set) var count = 0
    /// The byte offset of the first; meaningless while `count` is 0.
    private(set) var first = 0

    mutating func add(_ number: Int = 1, at offset: Int) {
        if count == 0 { first = offset }
        count += number
    }
}
