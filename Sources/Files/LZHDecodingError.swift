/// Why an LZH member of a method libarchive does not decode (LHarc 1's `-lh1-`) was not read by
/// liblhasa. Said of the member, whose name the caller gives; the archive's other members read on.
public enum LZHDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// liblhasa, opened at its first use, could not be opened.
    case libraryMissing(method: String, reason: String)
    /// A method liblhasa has no decoder for either (`-lh2-`, `-lh3-`).
    case unknownMethod(String)
    /// The compressed bytes decode to fewer bytes than the header says: cut short, or damaged.
    case endsEarly(method: String, length: Int, expected: Int64)
    /// The bytes decoded are not those the header's CRC-16 was made from.
    case crcMismatch(method: String)
    /// The archive's file could not be read where the member's bytes are.
    case unreadable

    public var description: String {
        switch self {
        case .libraryMissing(let method, let reason): "cannot decode \(method) data: \(reason) (Debian's liblhasa0 decodes it)"
        case .unknownMethod(let method): "its method \(method) is one neither libarchive nor liblhasa decodes"
        case .endsEarly(let method, let length, let expected):
            "damaged: its \(method) data decodes to \(length) bytes where its header says \(expected)"
        case .crcMismatch(let method): "damaged: what its \(method) data decodes to fails the header's CRC"
        case .unreadable: "its data could not be read from the archive's file"
        }
    }
}
