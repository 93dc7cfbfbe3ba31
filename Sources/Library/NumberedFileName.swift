import SystemPackage

/// The names a copy may take when its own is in use: `Name.mid`, then `Name (2).mid`,
/// `Name (3).mid`… The number goes before the last extension, so the copy keeps its
/// type; a name that starts with its only dot (`.mid`) has no extension. Names are bytes,
/// UTF-8 or not.
struct NumberedFileName {
    /// The longest name Linux file systems take, in bytes.
    static let byteLimit = 255

    private let stem: ArraySlice<UInt8>
    private let fileExtension: ArraySlice<UInt8>

    init(_ name: [UInt8]) {
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex {
            stem = name[..<dot]
            fileExtension = name[dot...]
        } else {
            stem = name[...]
            fileExtension = []
        }
    }

    /// The name for the `number`th copy; the first is the name itself. The stem is
    /// shortened, never inside a UTF-8 character, when the number would push the name
    /// past the file system's limit.
    func candidate(_ number: Int) -> FilePath.Component {
        guard number > 1 else { return Self.component(Array(stem + fileExtension)) }
        let suffix = Array(" (\(number))".utf8) + fileExtension
        var kept = stem
        while kept.count + suffix.count > Self.byteLimit, !kept.isEmpty {
            // The last character whole: its continuation bytes (10xxxxxx), then its first byte.
            while let last = kept.last, last & 0xC0 == 0x80 { kept.removeLast() }
            if !kept.isEmpty { kept.removeLast() }
        }
        return Self.component(Array(kept) + suffix)
    }

    private static func component(_ bytes: [UInt8]) -> FilePath.Component {
        FilePath.Component(platformString: bytes.map { CChar(bitPattern: $0) } + [0]) ?? "copy"
    }
}
