/// The names a copy may take when its own is in use: `Name.mid`, then `Name (2).mid`,
/// `Name (3).mid`… The number goes before the last extension, so the copy keeps its
/// type; a name that starts with its only dot (`.mid`) has no extension.
struct NumberedFileName {
    /// The longest name Linux file systems take, in bytes.
    static let byteLimit = 255

    private let stem: Substring
    private let fileExtension: Substring

    init(_ name: String) {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            stem = name[..<dot]
            fileExtension = name[dot...]
        } else {
            stem = name[...]
            fileExtension = ""
        }
    }

    /// The name for the `number`th copy; the first is the name itself. The stem is
    /// shortened, at a character boundary, when the number would push the name past
    /// the file system's limit.
    func candidate(_ number: Int) -> String {
        guard number > 1 else { return String(stem + fileExtension) }
        let suffix = " (\(number))" + fileExtension
        var kept = Substring(stem)
        while kept.utf8.count + suffix.utf8.count > Self.byteLimit, !kept.isEmpty {
            kept.removeLast()
        }
        return String(kept) + suffix
    }
}
