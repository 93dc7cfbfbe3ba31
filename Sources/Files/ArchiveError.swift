/// Why an archive, or a member of one, could not be read. The caller names the archive.
public enum ArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The archive's own bytes could not be read, or are not an archive its reader knows.
    case damaged(reason: String)
    /// No member has the name asked for.
    case noSuchMember
    /// The member is larger than any file of its kind: left unread.
    case memberTooLarge(limit: Int)
    /// The member is encrypted: smfplay has no password to give.
    case encrypted
    /// An LZH member of a method libarchive does not decode, which liblhasa did not either.
    case notDecoded(LZHDecodingError)
    /// libarchive, which reads archives, could not be loaded (opened at its first use).
    case libraryMissing(reason: String)
    /// An archive inside an archive inside an archive: one level of nesting is opened, no more.
    case nestedTooDeep

    public var description: String {
        switch self {
        case .damaged(let reason): "damaged archive: \(reason)"
        case .noSuchMember: "no such file in the archive"
        case .memberTooLarge(let limit): "larger than the \(limit) bytes it can be, left out"
        case .encrypted: "encrypted, left out (no password)"
        case .notDecoded(let error): error.description
        case .libraryMissing(let reason): "cannot read archives: \(reason) (Debian's libarchive13 reads them)"
        case .nestedTooDeep: "an archive in an archive in an archive: only one level is opened"
        }
    }
}
