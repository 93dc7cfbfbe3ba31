import SMF

/// The input as a track's events, in a file large enough for the reader to parse its tracks on
/// several threads (over 1 MiB of tracks): three tracks, the first and last after a long text
/// event that makes up the size. Each reads as it does alone in a file, where it is parsed on
/// the calling thread; the file fails with the first track's error.
enum ParallelTracksFuzzing {
    /// A text event of 512 KiB at tick 0: two such tracks pass the reader's 1 MiB.
    static let padding: [UInt8] = [0x00, 0xFF, 0x01, 0xA0, 0x80, 0x00] + [UInt8](repeating: 0x20, count: 0x8_0000)

    static func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        let padded = padding + bytes
        let whole = read(file(tracks: [padded, bytes, padded]))
        let alone = read(file(tracks: [padded]))
        let short = read(file(tracks: [bytes]))
        switch (whole, alone, short) {
        case (.success(let file), .success(let padded), .success(let short)):
            guard file.tracks == [padded.tracks[0], short.tracks[0], padded.tracks[0]] else {
                throw .brokenPromise("tracks read in parallel differ from the same tracks read alone")
            }
        case (.failure(let error), .failure(let alone), .failure):
            guard error == alone else { throw .brokenPromise("read in parallel: \(error); the first track alone: \(alone)") }
        default:
            throw .brokenPromise("in parallel: \(whole); the first track alone: \(alone); the input alone: \(short)")
        }
    }

    private static func read(_ bytes: [UInt8]) -> Result<MIDIFile, SMFError> {
        Result { () throws(SMFError) in try SMFReader(policy: .lenient).read(bytes).file }
    }

    /// A format 1 file of these track chunks.
    private static func file(tracks: [[UInt8]]) -> [UInt8] {
        var bytes = Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, UInt8(tracks.count), 0x01, 0xE0]
        for track in tracks {
            bytes += Array("MTrk".utf8) + withUnsafeBytes(of: UInt32(track.count).bigEndian, Array.init) + track
        }
        return bytes
    }
}
