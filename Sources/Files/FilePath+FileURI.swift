import SystemPackage

extension FilePath {
    /// The absolute path as a `file://` URI, each byte percent-encoded but for letters, digits and
    /// `!$&'()*+,-./:=@_~`: the bytes GLib's `g_filename_to_uri` leaves as they are. Freedesktop
    /// thumbnails are named by the MD5 of this exact text, so it must be GLib's, byte for byte.
    public var fileURI: String {
        var uri = "file://"
        for byte in bytes {
            if Self.unescapedInURI.contains(byte) {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                uri += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return uri
    }

    /// The path a `file:` URI names (`file:///path` or `file://localhost/path`), its
    /// percent-encoded bytes decoded as bytes (a name need not be UTF-8); nil for another scheme, a
    /// remote host, a relative path, a malformed escape or an encoded NUL.
    public init?(fileURI uri: String) {
        var rest = Substring(uri)
        guard rest.lowercased().hasPrefix("file://") else { return nil }
        rest = rest.dropFirst("file://".count)
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/") else { return nil }
        var bytes: [UInt8] = []
        var input = Array(rest.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16), value != 0 else { return nil }
            bytes.append(value)
            input = input.dropFirst(2)
        }
        self.init(bytes: bytes)
    }

    private static let unescapedInURI: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!$&'()*+,-./:=@_~".utf8))
}
