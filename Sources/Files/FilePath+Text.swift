import Foundation
import SystemPackage

extension FilePath {
    /// The path as a person reads it, one name at a time: a name in UTF-8 as it is, one in
    /// Shift-JIS (the names of Japanese archives unpacked on Linux) or in the encoding the listener
    /// chose (``FileNameEncoding``) decoded from it, and any other byte that is not UTF-8 as
    /// `\xNN`. Never used to reach the file: the path's bytes do that.
    ///
    /// Worked out on the bytes, not through `components`: see ``FilePath/relativeBytes(under:)``.
    public var text: String {
        let bytes = self.bytes
        if bytes.isEmpty { return "." }
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map(Self.text(ofName:)).joined(separator: "/")
    }

    /// One name's bytes as a person reads them (see ``text``).
    public static func text(ofName bytes: ArraySlice<UInt8>) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        let encoding = FileNameEncoding.current ?? .shiftJIS
        if encoding != .utf8, let decoded = String(data: Data(bytes), encoding: encoding), !decoded.unicodeScalars.contains(where: isControl) {
            return decoded
        }
        var result = ""
        var rest = bytes
        while !rest.isEmpty {
            // The longest run that is UTF-8 stays as it is; each byte that breaks it becomes \xNN.
            var length = rest.count
            while length > 0, String(validating: rest.prefix(length), as: UTF8.self) == nil { length -= 1 }
            if length > 0 {
                result += String(decoding: rest.prefix(length), as: UTF8.self)
                rest = rest.dropFirst(length)
            } else {
                let hex = String(rest.first!, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// The last name without its extension, as a person reads it (see ``text``): what a song is
    /// called when it has no title. Worked out on the bytes, for worker threads (see
    /// ``relativeBytes(under:)``); a name that starts with its only dot keeps it (`.mid`).
    public var stemText: String {
        let bytes = self.bytes
        let name = bytes[(bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...]
        let stem = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 == name.startIndex ? nil : name[..<$0] } ?? name
        return Self.text(ofName: stem)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// The bytes of this path after `root` and a `/`, when both are absolute and the rest is names
    /// other than `.` and `..`; nil otherwise.
    ///
    /// On bytes, because FilePath's `components` (and what uses them: `removePrefix`,
    /// `starts(with:)`) go through a coroutine accessor that, called on a thread other than the
    /// main one, corrupted the heap here (Swift 6.3 on Linux: AddressSanitizer saw the coroutine's
    /// frame freed twice, once by libdispatch's per-thread cache); the library index reads files on
    /// worker threads.
    public func relativeBytes(under root: FilePath) -> ArraySlice<UInt8>? {
        let path = bytes
        let root = root.bytes
        let slash = UInt8(ascii: "/")
        guard path.first == slash, root.first == slash else { return nil }
        let prefixLength = root.last == slash ? root.count : root.count + 1
        guard path.count > prefixLength, path.starts(with: root), root.last == slash || path[root.count] == slash else { return nil }
        let rest = path[prefixLength...]
        for name in rest.split(separator: slash, omittingEmptySubsequences: false) {
            if name.isEmpty || name.elementsEqual([UInt8(ascii: ".")]) || name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { return nil }
        }
        return rest
    }

    /// The path's bytes, without the terminating NUL.
    public var bytes: [UInt8] {
        // Copied once (the library index takes the bytes of every path several times).
        withPlatformString { pointer in [UInt8](UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))) }
    }

    /// The path made of these bytes; a NUL byte (which no path can hold) ends it. (Inlinable: a
    /// caller's collection is then read as itself, not through generic calls a byte.)
    @inlinable public init(bytes: some Collection<UInt8>) {
        // Bytes in one piece (an array, `Data`) are copied as a buffer: `Data` read a byte at a
        // time checks its exclusive access at each byte (a search's 200 paths took 0.4 ms).
        let characters =
            bytes.withContiguousStorageIfAvailable { buffer -> [CChar] in
                let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
                var characters = [CChar](repeating: 0, count: end + 1)
                characters.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<end]))) }
                return characters
            } ?? (bytes.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0])
        self.init(platformString: characters)
    }

    /// Whether every name is UTF-8, so that `String(decoding:)` gives the path back exactly.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The path's bytes in base64 when they are not UTF-8; nil when they are. JSON holds text
    /// only: ``text`` shows such a path to people, and these bytes open it.
    public var base64BytesUnlessUTF8: String? { isValidUTF8 ? nil : Data(bytes).base64EncodedString() }
}

extension FilePath.Component {
    /// The name's bytes, without the terminating NUL.
    public var bytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    /// The name as a person reads it; see ``FilePath/text``.
    public var text: String { FilePath.text(ofName: bytes[...]) }
}
