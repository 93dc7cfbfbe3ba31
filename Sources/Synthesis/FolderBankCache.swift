import Files
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The bank files of each folder a lookup has listed, so that a render of a folder of hundreds of
/// songs lists it once, not once per song; shared by the threads of one command (a batch render's
/// workers).
///
/// A folder's listing holds while its modification time (which every name added, removed or
/// renamed in it moves) stays as it was: one `stat` per song, so a bank dropped beside a song
/// during a long `browse` is found for its next play. A listing made less than two seconds after
/// the folder last changed is not kept: the file system's clock is coarse (a few ms on Linux), and
/// a name added in the same tick would leave the time as it was.
final class FolderBankCache: Sendable {
    private struct Listing {
        var stamp: FileStamp
        var banks: FolderBanks
    }

    /// Folders by their absolute path.
    private let listings = Mutex<[FilePath: Listing]>([:])
    /// Folders listed so far, kept or not (for tests: a folder's songs list it once).
    private let listingsMade = Atomic<Int>(0)

    /// At most this many folders are kept; past it, the cache starts again (a few hundred bytes a
    /// folder: a session over a whole library stays small).
    static let capacity = 4096

    /// How long after its last change a folder's listing is kept (see above).
    static let settledSeconds: Int64 = 2

    /// The bank files in `folder` (absolute), listed again only when it has changed; nil when it
    /// cannot be listed. A place in an archive changes with its archive.
    func banks(in folder: FilePath) -> FolderBanks? {
        let archived = folder.kind == .directory ? nil : ArchivedPath(folder)
        guard let stamp = FileStamp(ofFileAt: archived?.archive ?? folder) else { return nil }
        if let kept = listings.withLock({ $0[folder] }), kept.stamp == stamp { return kept.banks }
        let listedAt = Self.now
        guard let banks = archived == nil ? FolderBanks(listing: folder) : FolderBanks(archived: folder) else { return nil }
        listingsMade.add(1, ordering: .relaxed)
        // The stamp taken before the listing: a change made during it moves the time past it.
        if listedAt - stamp.modifiedSeconds >= Self.settledSeconds {
            listings.withLock { listings in
                if listings.count >= Self.capacity { listings.removeAll(keepingCapacity: true) }
                listings[folder] = Listing(stamp: stamp, banks: banks)
            }
        }
        return banks
    }

    /// Whether `folder`'s listing is kept (for tests).
    func holdsListing(of folder: FilePath) -> Bool {
        listings.withLock { $0[folder] != nil }
    }

    /// How many folders have been listed (for tests).
    var listingCount: Int { listingsMade.load(ordering: .relaxed) }

    /// Seconds since 1970, as file times count them.
    private static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}
