#if canImport(Glibc)
import Glibc
#endif
import Files
import SMF
import SystemPackage

/// A MIDI file piped in: `-` where a command takes a file (`curl … | smfplay play -`).
enum StandardInput {
    /// The argument that stands for standard input. A file named `-` is given as `./-`.
    static let argument = "-"
    /// How messages and reports call it.
    static let name = "standard input"
    /// The play queue's entry for the song read from standard input: `-` is never a path the
    /// queue gets otherwise (a file of that name is `./-`, or `folder/-`).
    static let queueEntry = FilePath(argument)
    /// The most read: a MIDI file of more is not music, and memory is not spent on it.
    static let byteLimit = 256 << 20

    static func isArgument(_ argument: String) -> Bool {
        argument == Self.argument
    }

    /// Reads standard input to its end and reads that as a MIDI file.
    static func read(policy: SMFReadingPolicy = .lenient) throws(StandardInputError) -> SMFReader.Output {
        try read(bytes(), policy: policy)
    }

    static func read(_ bytes: [UInt8], policy: SMFReadingPolicy = .lenient) throws(StandardInputError) -> SMFReader.Output {
        do {
            return try SMFReader(policy: policy).read(bytes)
        } catch {
            throw .invalid(error)
        }
    }

    /// Everything standard input holds, up to `byteLimit`.
    static func bytes() throws(StandardInputError) -> [UInt8] {
        guard isatty(STDIN_FILENO) == 0 else { throw .terminal }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .unreadable(reason: SystemError.current) }
            if count == 0 { break }
            // Refused as soon as it goes past the limit: the rest is never held.
            guard bytes.count + count <= byteLimit else { throw .tooLarge(limit: byteLimit) }
            bytes += chunk[..<count]
        }
        guard !bytes.isEmpty else { throw .empty }
        return bytes
    }
}
