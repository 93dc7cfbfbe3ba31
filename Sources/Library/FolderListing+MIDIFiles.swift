import SystemPackage

extension FolderListing {
    /// Whether there is a MIDI file in `folder` or under it, looking into `foldersAtMost` folders
    /// at most (breadth first: a music folder's MIDI files are rarely deep), so that a home's
    /// whole tree is never walked to say so.
    public static func holdsMIDIFiles(_ folder: FilePath, foldersAtMost: Int = 300) -> Bool {
        var waiting = [folder]
        var read = 0
        while !waiting.isEmpty, read < foldersAtMost {
            let next = waiting.removeFirst()
            read += 1
            guard let listing = try? FolderListing(folder: next) else { continue }
            if listing.entries.contains(where: { $0.kind == .midiFile }) { return true }
            waiting += listing.entries.filter { $0.kind == .folder }.map(\.path)
        }
        return false
    }
}

extension FolderListing {
    /// The MIDI files in `folder`, not in the folders in it, in the browser's order: an album's
    /// songs (`--loudness folder`). None when it cannot be read.
    @Sendable public static func midiFiles(in folder: FilePath) -> [FilePath] {
        guard let listing = try? FolderListing(folder: folder) else { return [] }
        return listing.entries.filter { $0.kind == .midiFile }.map(\.path)
    }
}
