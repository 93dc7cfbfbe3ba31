import SystemPackage

/// A member's name as smfplay addresses it: relative, its folders joined by `/`, without `./` or
/// empty parts; nil for a name that would lead outside the archive's folder (absolute, or through
/// `..`), which is never read, shown or written.
struct ArchiveMemberName {
    let path: FilePath?

    init(_ bytes: [UInt8]) {
        let slash = UInt8(ascii: "/")
        guard bytes.first != slash else {
            path = nil
            return
        }
        let parts = bytes.split(separator: slash, omittingEmptySubsequences: true).filter { !$0.elementsEqual([UInt8(ascii: ".")]) }
        guard !parts.isEmpty, !parts.contains(where: { $0.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) }) else {
            path = nil
            return
        }
        path = FilePath(bytes: Array(parts.joined(separator: [slash])))
    }
}
