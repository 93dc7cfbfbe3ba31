/// How far an update of the index has come.
public struct IndexProgress: Hashable, Sendable {
    /// MIDI files found in the library.
    public var found: Int
    /// Files new or changed since they were indexed, to be read.
    public var toRead: Int
    /// Of those, read so far.
    public var read: Int
}

/// What an update of the index did.
public struct IndexSummary: Hashable, Sendable {
    public var found = 0
    public var unchanged = 0
    public var added = 0
    public var updated = 0
    public var removed = 0
    /// Files unchanged but read again, their texts having been read in another text encoding.
    public var recoded = 0
    /// RMID files unchanged but read again, having been indexed before their INFO artists,
    /// albums and genres were.
    public var readForRMIDInfo = 0
    /// Files that could not be read as MIDI (kept in the index with the reason, not searched).
    public var unreadable: [String] = []
    /// Folders and names that could not be used, and why (a folder without permission, a name
    /// that is not UTF-8).
    public var problems: [String] = []
    /// Whether the update was stopped before it had read every file (the next one goes on).
    public var wasCancelled = false
}
