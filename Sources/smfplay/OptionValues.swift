import ArgumentParser
import AudioOutput
import Configuration
import Loudness
import Playback
import RenderJobs
import SMF
import Synthesis

// Option values read once, by ArgumentParser, into the types the commands use: completions and
// man pages list the values of those with a fixed set, and a value that is not one is refused
// with the option's usage before anything runs.

extension PlayQueue.RepeatMode: ExpressibleByArgument {}

extension SampleEncoding: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(bits: argument)
    }
}

extension MIDIMode: ExpressibleByArgument {}
extension LoudnessMode: ExpressibleByArgument {}

/// `--seek`: a bar and beat, or seconds, as given.
struct SeekArgument: Hashable {
    let position: SongPosition
    let text: String

    init(parsing argument: String) throws {
        guard let position = SongPosition(argument) else { throw ValidationError("give bar:beat (from 1:1) or seconds") }
        self.position = position
        text = argument
    }
}

/// `--shard`: `auto` (from the job array's environment, read when the render starts), or I/N.
enum ShardArgument: Hashable {
    case automatic
    case given(Shard)

    init(parsing argument: String) throws {
        if argument == "auto" {
            self = .automatic
        } else if let shard = Shard(parsing: argument) {
            self = .given(shard)
        } else {
            throw ValidationError("give I/N, with 0 <= I < N, or auto")
        }
    }
}

/// `--format`: a format's name, or a file extension that names one (`aif`, `oga`, `wave`).
extension AudioFileFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = AudioFileFormat(name: argument) ?? AudioFileFormat(fileExtension: argument) else { return nil }
        self = format
    }
}

/// `--cores`: `auto`, or a number of synthesizers.
enum CoreCount: Hashable {
    case automatic
    case count(Int)

    init(parsing text: String) throws {
        if text == "auto" {
            self = .automatic
            return
        }
        guard let count = Int(text), AudioSettings.coresRange.contains(count) else {
            throw ValidationError("give auto or a number from \(AudioSettings.coresRange.lowerBound) to \(AudioSettings.coresRange.upperBound)")
        }
        self = .count(count)
    }
}

extension LoopCount {
    /// `--loops`: extra passes through a song's loop, `inf` or `marked`.
    init(parsing text: String) throws {
        guard let count = LoopCount(text: text) else { throw ValidationError("give \(LoopCount.expected)") }
        self = count
    }
}

extension ChannelSet {
    /// Channels as `--mute` and `--solo` take them: numbers 1–16, comma-separated.
    static func parsing(_ text: String) throws -> ChannelSet {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.filter { $0 != " " }) }
        guard !numbers.isEmpty, !numbers.contains(nil), let channels = ChannelSet(numbers: numbers.compactMap { $0 }) else {
            throw ValidationError("give channels 1-16 separated by commas")
        }
        return channels
    }
}
