/// Bytes of a RIFF file, built front to back: little-endian numbers, four-character codes,
/// fixed-width names, and chunks and lists padded to an even size as RIFF asks (the pad byte is
/// not counted in the chunk's size).
struct RIFFBuilder {
    private(set) var bytes: [UInt8] = []

    init() {}

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    /// A four-character code such as `RIFF` or `smpl`.
    mutating func append(code: String) {
        precondition(code.utf8.count == 4, "a RIFF code is four characters: \(code)")
        bytes.append(contentsOf: code.utf8)
    }

    /// A name in a field of `width` bytes, cut to leave at least one zero after it.
    mutating func append(name: String, width: Int) {
        let characters = Array(name.utf8.prefix(width - 1))
        bytes.append(contentsOf: characters + [UInt8](repeating: 0, count: width - characters.count))
    }

    /// A chunk: its code, its size, its body, and a zero after an odd body.
    mutating func append(chunk code: String, body: [UInt8]) {
        append(code: code)
        append(UInt32(body.count))
        bytes.append(contentsOf: body)
        if body.count % 2 == 1 { bytes.append(0) }
    }

    /// A `LIST` (or `RIFF`) chunk of `type` holding the chunks `build` appends.
    mutating func append(list type: String, kind: String = "LIST", _ build: (inout RIFFBuilder) throws -> Void) rethrows {
        var inner = RIFFBuilder()
        inner.append(code: type)
        try build(&inner)
        append(chunk: kind, body: inner.bytes)
    }

    /// A text chunk of an INFO list: the text with a zero after it, the whole padded to even.
    mutating func append(text code: String, _ text: String) {
        append(chunk: code, body: Array(text.utf8) + [0])
    }

    /// A whole `RIFF` file of form `form`.
    static func file(form: String, _ build: (inout RIFFBuilder) throws -> Void) rethrows -> [UInt8] {
        var builder = RIFFBuilder()
        try builder.append(list: form, kind: "RIFF", build)
        return builder.bytes
    }

    /// A chunk's body built apart (a record table, a header).
    static func body(_ build: (inout RIFFBuilder) throws -> Void) rethrows -> [UInt8] {
        var builder = RIFFBuilder()
        try build(&builder)
        return builder.bytes
    }
}
