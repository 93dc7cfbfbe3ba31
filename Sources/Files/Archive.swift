import Synchronization
import SystemPackage

/// An archive's files read into memory, in one pass: their names, and the bytes of each no larger
/// than a file of its kind may be. Memory stays bounded whatever the archive holds: each member by
/// the limit as it is decompressed (not by the size its header claims), the members' count, and
/// the bytes decompressed in all; each thing left out is said once (``warnings``).
///
/// The last archive opened is kept, with its file's stamp, and the last archive opened inside one:
/// reading their members one after another (a queue playing a pack, the index reading each file)
/// reads each archive once.
public struct Archive: Sendable {
    /// Files in the archive, in the order it holds them (folders are implied by their names).
    public let members: [ArchiveMember]
    public let warnings: [ArchiveWarning]
    private let contents: [FilePath: [UInt8]]
    /// Whether this archive is itself inside another.
    let isNested: Bool
    /// Which reading of an archive this is: the archives inside it are kept by it.
    private let reading: UInt64

    /// More members than this, and the rest are left out.
    public static let memberCountLimit = 65_536
    /// More bytes decompressed than this in one archive, and the rest is left out: an archive of
    /// MIDI files holds far less, a zip bomb far more.
    public static let decompressedLimit: Int64 = 1 << 30
    /// An archive inside another is read whole into memory, up to this.
    public static let nestedArchiveLimit = 64 << 20
    /// No member larger than this is read, whatever limit the caller gives: the largest MIDI files
    /// (black MIDI) are tens of megabytes, and a zip bomb's member would otherwise take the limit
    /// of a file on disk (1 GB) in memory.
    public static let memberSizeCeiling = 256 << 20

    /// The bytes of `member`, or nil when it is not in the archive or was left out.
    public func data(of member: FilePath) -> [UInt8]? {
        contents[member]
    }

    /// The archive `member` of this one, opened from memory; an archive inside one that is
    /// itself inside another is not opened.
    public func nested(_ member: FilePath, memberLimit: Int) throws(ArchiveError) -> Archive {
        guard !isNested else { throw .nestedTooDeep }
        guard let bytes = contents[member] else { throw .noSuchMember }
        let memberLimit = min(memberLimit, Self.memberSizeCeiling)
        if let kept = Self.lastNested.withLock({ $0 }), kept.outer == reading, kept.member == member, kept.memberLimit == memberLimit {
            return kept.archive
        }
        guard let format = ArchiveFormat(head: Array(bytes.prefix(512))) else { throw .damaged(reason: "\(member.text) is not an archive") }
        let archive = try Self.read(.bytes(bytes), format: format, memberLimit: memberLimit, isNested: true)
        Self.lastNested.withLock { $0 = KeptNested(outer: reading, member: member, memberLimit: memberLimit, archive: archive) }
        return archive
    }

    /// The archive in the file at `path`, from memory if it was the last opened and has not changed.
    public static func open(_ path: FilePath, memberLimit: Int) throws(ArchiveError) -> Archive {
        let memberLimit = min(memberLimit, memberSizeCeiling)
        let stamp = FileStamp(ofFileAt: path)
        if let kept = last.withLock({ $0 }), kept.path == path, kept.stamp == stamp, kept.memberLimit == memberLimit {
            return kept.archive
        }
        let file: ReadableFile
        do {
            file = try ReadableFile(path)
        } catch {
            throw .damaged(reason: error.description)
        }
        guard let head = try? file.read(upTo: 512, at: 0), let format = ArchiveFormat(head: head) else {
            throw .damaged(reason: "not an archive smfplay reads")
        }
        let archive = try read(.file(file), format: format, memberLimit: memberLimit, isNested: false)
        last.withLock { $0 = Kept(path: path, stamp: stamp, memberLimit: memberLimit, archive: archive) }
        return archive
    }

    private struct Kept {
        let path: FilePath
        let stamp: FileStamp?
        let memberLimit: Int
        let archive: Archive
    }

    private static let last = Mutex<Kept?>(nil)

    private struct KeptNested {
        let outer: UInt64
        let member: FilePath
        let memberLimit: Int
        let archive: Archive
    }

    private static let lastNested = Mutex<KeptNested?>(nil)
    private static let readings = Atomic<UInt64>(0)

    private static func read(_ source: ArchiveSource, format: ArchiveFormat, memberLimit: Int, isNested: Bool) throws(ArchiveError) -> Archive {
        let pass = try source.pass(format)
        var members: [ArchiveMember] = []
        var contents: [FilePath: [UInt8]] = [:]
        var warnings: [ArchiveWarning] = []
        do {
            while let entry = try pass.nextEntry() {
                guard entry.kind == .file else { continue }
                guard let name = ArchiveMemberName(entry.name).path else {
                    warnings.append(.unsafeName(FilePath(bytes: entry.name)))
                    continue
                }
                guard !entry.isEncrypted else {
                    warnings.append(.encrypted(name))
                    continue
                }
                guard members.count < memberCountLimit else {
                    warnings.append(.tooManyMembers(limit: memberCountLimit))
                    break
                }
                // Members that are archives are kept up to their own limit: they are opened as folders.
                let limit = ArchiveFormat.hasArchiveName(name) && !isNested ? max(memberLimit, nestedArchiveLimit) : memberLimit
                let read: [UInt8]?
                if format == .lzh, let header = LZHHeader(undecodedAt: pass.headerPosition, in: source) {
                    // libarchive has no decoder for the method (LHarc 1's -lh1-): liblhasa decodes the
                    // member's bytes, which libarchive then skips. Damage there is the member's alone.
                    guard header.dataEnd <= source.size else {
                        warnings.append(.damaged(reason: "the archive ends inside \(name.text)"))
                        break
                    }
                    do {
                        read = try LhasaDecoder.decode(header, from: source, limit: limit)
                    } catch {
                        ArchiveWarning.leaveOut(name, notDecoded: error, in: &warnings)
                        continue
                    }
                } else {
                    read = try pass.readData(limit: limit)
                }
                guard let data = read else {
                    warnings.append(.memberTooLarge(name, limit: limit))
                    continue
                }
                // A name held twice: the later file is read, as unpacking the archive would leave it.
                if contents.updateValue(data, forKey: name) != nil {
                    members.removeAll { $0.name == name }
                    warnings.append(.repeatedName(name))
                }
                members.append(ArchiveMember(name: name, size: Int64(data.count)))
                guard pass.decompressedBytes <= decompressedLimit else {
                    warnings.append(.tooMuchData(limit: decompressedLimit))
                    break
                }
            }
        } catch {
            // What was read before the damage is kept: an archive cut short still plays its first songs.
            guard !members.isEmpty || !warnings.isEmpty else { throw error }
            if case .damaged(let reason) = error { warnings.append(.damaged(reason: reason)) }
        }
        let reading = readings.add(1, ordering: .relaxed).newValue
        return Archive(members: members, warnings: warnings, contents: contents, isNested: isNested, reading: reading)
    }
}
