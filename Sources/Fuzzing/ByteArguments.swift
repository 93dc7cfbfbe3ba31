import MediaPlayerService

/// A call's arguments read from fuzz input in the order the call asks for them, whatever their
/// types: a string or object path is a length byte and that many bytes (as sd-bus hands over, in
/// UTF-8), a number eight bytes (a double any bit pattern: NaN, infinities), a boolean one byte.
/// Running out of bytes fails as a broken message does.
final class ByteArguments: CallArguments {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    func string() throws(MediaPlayerCallError) -> String {
        try text()
    }

    func objectPath() throws(MediaPlayerCallError) -> String {
        try text()
    }

    func int64() throws(MediaPlayerCallError) -> Int64 {
        Int64(bitPattern: try word())
    }

    func bool() throws(MediaPlayerCallError) -> Bool {
        guard let byte = bytes.popFirst() else { throw .unreadableArguments("no more arguments") }
        return byte & 1 == 1
    }

    func double() throws(MediaPlayerCallError) -> Double {
        Double(bitPattern: try word())
    }

    private func text() throws(MediaPlayerCallError) -> String {
        guard let length = bytes.popFirst() else { throw .unreadableArguments("no more arguments") }
        let taken = bytes.prefix(Int(length))
        bytes = bytes.dropFirst(taken.count)
        return String(decoding: taken, as: UTF8.self)
    }

    private func word() throws(MediaPlayerCallError) -> UInt64 {
        guard bytes.count >= 8 else { throw .unreadableArguments("no more arguments") }
        defer { bytes = bytes.dropFirst(8) }
        return bytes.prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
