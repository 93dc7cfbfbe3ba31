import SystemPackage

/// An input that could not be rendered before anything was tried, as a one-line message; with
/// the MIDI file it is about when there is one (`--report` gives it a line of its own).
public struct RenderProblem: Error, CustomStringConvertible {
    public var input: FilePath?
    var output: FilePath?
    public let description: String
}
