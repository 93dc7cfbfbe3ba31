import Files
import SMF

#if canImport(Glibc)
    import Glibc
#endif

/// A MIDI file piped in: `-` where a command takes a file (`curl … | smfplay play -`).
public enum StandardInput {
    /// The argument that stands for standard input. A file named `-` is given as `./-`.
    public static let argument = "-"
    /// How messages and reports call it.
    public static let name = "standard input"
    /// The most read: a MIDI file of more is not music, and memory is not spent on it.
    static let byteLimit = 256 << 20

    public static func isArgument(_ argument: String) -> Bool {
        argument == Self.argument
    }

    /// Reads standard input to its end and reads that as a MIDI file.
    public static func read(policy: SMFReadingPolicy = .lenient) throws(StandardInputError) -> SMFReader.Output {
        try read(bytes(), policy: policy)
    }

    public static func read(_ bytes: [UInt8], policy: SMFReadingPolicy = .lenient) throws(StandardInputError) -> SMFReader.Output {
        do {
            return try SMFReader(policy: policy).read(bytes)
        } catch {
            throw .invalid(error)
        }
    }

    /// Everything standard input holds, up to `byteLimit`.
    public static func bytes() throws(StandardInputError) -> [UInt8] {
        guard isatty(STDIN_FILENO) == 0 else { throw .terminal }
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.readToEnd(STDIN_FILENO, limit: byteLimit)
        } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(reason: reason)
            case .tooLarge(let limit): throw .tooLarge(limit: limit)
            }
        }
        guard !bytes.isEmpty else { throw .empty }
        return bytes
    }
}
