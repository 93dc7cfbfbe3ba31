/// Writes dotted key paths the way a person would type them in the file.
enum KeyPath {
    /// `reverb.level`; a part that is not a bare key is quoted (`"lev el"`).
    static func display(_ key: [String]) -> String {
        key.map(displayPart).joined(separator: ".")
    }

    private static func displayPart(_ part: String) -> String {
        let isBare =
            !part.isEmpty
            && part.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
            }
        return isBare ? part : TOMLValueDescription.quoted(part)
    }
}
