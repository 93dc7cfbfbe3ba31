import SystemPackage

/// Something in an archive that was left out as it was read, each said once.
public enum ArchiveWarning: Hashable, Sendable, CustomStringConvertible {
    /// A member larger than any file of its kind; it grew past `limit` as it was decompressed,
    /// whatever its header claimed.
    case memberTooLarge(FilePath, limit: Int)
    /// A name that would reach outside the archive's folder (absolute, or through `..`).
    case unsafeName(FilePath)
    case encrypted(FilePath)
    /// An LZH member of a method libarchive does not decode, which liblhasa did not either: why.
    case notDecoded(FilePath, LZHDecodingError)
    /// More members than an archive is read for: the rest are left out.
    case tooManyMembers(limit: Int)
    /// More decompressed bytes than an archive of MIDI files could hold: reading stopped there.
    case tooMuchData(limit: Int64)
    /// Two files of one name: the later is read.
    case repeatedName(FilePath)
    /// The archive ends early or is damaged after the members read so far.
    case damaged(reason: String)

    public var description: String {
        switch self {
        case .memberTooLarge(let member, let limit): "\(member.text): larger than the \(limit) bytes a file in it may have, left out"
        case .unsafeName(let member): "\(member.text): a name that leads outside the archive, left out"
        case .encrypted(let member): "\(member.text): encrypted, left out (no password)"
        case .notDecoded(let member, let error): "\(member.text): \(error), left out"
        case .tooManyMembers(let limit): "more than \(limit) files: the rest left out"
        case .tooMuchData(let limit): "more than \(limit / (1 << 20)) MB once decompressed: the rest left out"
        case .repeatedName(let member): "\(member.text): in the archive twice, the later one read"
        case .damaged(let reason): "damaged: \(reason); the files before it kept"
        }
    }

    /// The limit `member` was left out for being larger than, if it was.
    func tooLargeLimit(of member: FilePath) -> Int? {
        guard case .memberTooLarge(member, let limit) = self else { return nil }
        return limit
    }

    /// Why `member` was not decoded, if it was not.
    func decodingError(of member: FilePath) -> LZHDecodingError? {
        guard case .notDecoded(member, let error) = self else { return nil }
        return error
    }
}
