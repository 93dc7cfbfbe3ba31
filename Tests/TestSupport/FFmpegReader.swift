import Foundation
import Testing

/// Debian's ffprobe and ffmpeg, a reader of audio files that shares nothing with smfplay's
/// (libavformat and libavcodec, not libsndfile, mpg123, libopus's file code or TagLib): what a
/// written file holds, as players will find it.
public enum FFmpegReader {
    public static let ffprobe = "/usr/bin/ffprobe"
    public static let ffmpeg = "/usr/bin/ffmpeg"

    /// What ffprobe says of a file.
    public struct Probe: Sendable {
        /// The container's duration, in seconds.
        public var duration: Double
        /// The audio stream's sample rate: the rate players decode at (always 48000 for Opus).
        public var sampleRate: Int
        /// The container's tags and the audio stream's (where Ogg keeps its Vorbis comments),
        /// their names in upper case: `TITLE`, `REPLAYGAIN_TRACK_GAIN`.
        public var tags: [String: String]
    }

    /// Fails the test, with what to install, when ffmpeg is not there.
    public static func require() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ffprobe) && FileManager.default.isExecutableFile(atPath: ffmpeg),
            "ffmpeg is missing: install Debian's ffmpeg (make deps)")
    }

    public static func probe(_ path: String) throws -> Probe {
        try require()
        let result = try Command(
            URL(fileURLWithPath: ffprobe),
            arguments: [
                "-v", "error", "-select_streams", "a:0", "-show_entries", "format=duration:format_tags:stream=sample_rate:stream_tags", "-of",
                "json", path,
            ],
            timeLimit: 60
        ).run()
        try #require(result.succeeded, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
        let format = try #require(json["format"] as? [String: Any], "\(result)")
        let stream = try #require((json["streams"] as? [[String: Any]])?.first, "no audio stream: \(result)")
        var tags: [String: String] = [:]
        for source in [format["tags"], stream["tags"]] {
            for (name, value) in source as? [String: String] ?? [:] { tags[name.uppercased()] = value }
        }
        return Probe(
            duration: try #require(Double(format["duration"] as? String ?? ""), "\(result)"),
            sampleRate: try #require(Int(stream["sample_rate"] as? String ?? ""), "\(result)"),
            tags: tags)
    }

    /// The file decoded by ffmpeg, as interleaved stereo floats at the rate it decodes at.
    public static func decode(_ path: String) throws -> [Float] {
        try require()
        let result = try Command(
            URL(fileURLWithPath: ffmpeg), arguments: ["-v", "error", "-i", path, "-f", "f32le", "-ac", "2", "-"], timeLimit: 120
        ).run()
        try #require(result.succeeded, "\(result)")
        return result.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The root mean square of interleaved samples, in dB relative to full scale.
    public static func rmsDecibels(_ samples: [Float]) -> Double {
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(sum / Double(max(samples.count, 1)))
    }
}
