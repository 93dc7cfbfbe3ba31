/// What one fuzz executable feeds its inputs to (`make fuzz` runs each; README, "Fuzzing").
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The SMF reader, lenient and strict, and the song and summary made from what it reads.
    case smfReader = "smf-reader"
    /// The input as the tracks of a file large enough for the reader to parse them in parallel.
    case smfParallelTracks = "smf-parallel-tracks"
    /// Read leniently, written, read strictly: the file the writer says it writes.
    case smfWriter = "smf-writer"
    /// RMID files: INFO texts, picture and sound bank, and written again around the song.
    case rmid
    /// The configuration file (TOML).
    case configuration
    /// M3U playlists, render input manifests and render reports.
    case lists
    /// A synthesizer fed arbitrary channel, bank and system exclusive messages.
    case soundModule = "sound-module"
    /// The method calls and property changes MPRIS clients send, with arbitrary arguments.
    case mpris

    /// Feeds `bytes` to the code under test; throws when it breaks a promise. A crash or a
    /// sanitizer's report is a failure too.
    public func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        switch self {
        case .smfReader: try SMFReaderFuzzing.test(bytes)
        case .smfParallelTracks: try ParallelTracksFuzzing.test(bytes)
        case .smfWriter: try WriterFuzzing.test(bytes)
        case .rmid: try RMIDFuzzing.test(bytes)
        case .configuration: ConfigurationFuzzing.test(bytes)
        case .lists: ListFuzzing.test(bytes)
        case .soundModule: try SoundModuleFuzzing.test(bytes)
        case .mpris: try MPRISFuzzing.test(bytes)
        }
    }
}
