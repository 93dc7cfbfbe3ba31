import SystemPackage

extension FilePath {
    /// When this path's last name is a number from 1 (`music.xmi/2`), the path above it and the
    /// number: how one song of a file of several is named (no real file can lie under a regular
    /// file). Whether the file above holds songs is its reader's to say.
    public var numberedSong: (file: FilePath, number: Int)? {
        let bytes = self.bytes
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash + 1 < bytes.count,
            bytes[(slash + 1)...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(String(decoding: bytes[(slash + 1)...], as: UTF8.self)), number >= 1
        else { return nil }
        return (FilePath(bytes: bytes[..<slash]), number)
    }
}
