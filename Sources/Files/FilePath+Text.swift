import Foundation
import SystemPackage

extension FilePath {
    /// The path as a person reads it, one name at a time: a name in UTF-8 as it is, one in
    /// Shift-JIS (the names of Japanese archives unpacked on Linux) decoded from it, and any other
    /// byte that is not UTF-8 as `\xNN`. Never used to reach the file: the path's bytes do that.
    public var text: String {
        var result = root.map { String(decoding: $0) } ?? ""
        for (index, component) in components.enumerated() {
            if index > 0 { result += "/" }
            result += component.text
        }
        return result.isEmpty ? "." : result
    }

    /// The path's bytes, without the terminating NUL.
    public var bytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    /// The path made of these bytes; a NUL byte (which no path can hold) ends it.
    public init(bytes: some Collection<UInt8>) {
        var characters = bytes.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }
        characters.append(0)
        self.init(platformString: characters)
    }

    /// Whether every name is UTF-8, so that `String(decoding:)` gives the path back exactly.
    public var isValidUTF8: Bool { String(validating: self) != nil }
}

extension FilePath.Component {
    /// The name's bytes, without the terminating NUL.
    public var bytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    /// The name as a person reads it; see ``FilePath/text``.
    public var text: String {
        if let utf8 = String(validating: self) { return utf8 }
        if let shiftJIS = String(data: Data(bytes), encoding: .shiftJIS), !shiftJIS.unicodeScalars.contains(where: Self.isControl) {
            return shiftJIS
        }
        var result = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest run that is UTF-8 stays as it is; each byte that breaks it becomes \xNN.
            var length = rest.count
            while length > 0, String(validating: rest.prefix(length), as: UTF8.self) == nil { length -= 1 }
            if length > 0 {
                result += String(decoding: rest.prefix(length), as: UTF8.self)
                rest = rest.dropFirst(length)
            } else {
                result += "\\x" + String(rest.first!, radix: 16, uppercase: true).leftPadded(to: 2)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
