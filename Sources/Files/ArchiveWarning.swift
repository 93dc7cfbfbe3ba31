import SystemPackage

/// Something in an archive that was left out as it was read, each said once.
public enum ArchiveWarning: Hashable, Sendable, CustomStringConvertible {
    /// A member larger than any file of its kind; it grew past `limit` as it was decompressed,
    /// whatever its header claimed.
    case memberTooLarge(FilePath, limit: Int)
    /// A name that would reach outside the archive's folder (absolute, or through `..`).
    case unsafeName(FilePath)
    case encrypted(FilePath)
    /// LZH members of a method libarchive does not decode, which liblhasa did not either, and why:
    /// one member each, but for liblhasa missing, said once for all it leaves out.
    case notDecoded([FilePath], LZHDecodingError)
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
        case .notDecoded(let members, let error): "\(members[0].text)\(Self.andOthers(members.count - 1)): \(error), left out"
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

    /// ` and N other files` after the first of several members' names; nothing after a member alone.
    private static func andOthers(_ count: Int) -> String {
        count == 0 ? "" : " and \(count) other file\(count == 1 ? "" : "s")"
    }

    /// Why `member` was not decoded, if it was not.
    func decodingError(of member: FilePath) -> LZHDecodingError? {
        guard case .notDecoded(let members, let error) = self, members.contains(member) else { return nil }
        return error
    }

    /// `member` left out of `warnings` for `error`: with the members already left out for the
    /// same missing library, in one warning (an archive of LHarc 1 has dozens of them).
    static func leaveOut(_ member: FilePath, notDecoded error: LZHDecodingError, in warnings: inout [ArchiveWarning]) {
        if case .libraryMissing = error,
            let index = warnings.firstIndex(where: { if case .notDecoded(_, error) = $0 { true } else { false } }),
            case .notDecoded(let members, _) = warnings[index]
        {
            warnings[index] = .notDecoded(members + [member], error)
        } else {
            warnings.append(.notDecoded([member], error))
        }
    }
}
