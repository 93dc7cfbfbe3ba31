import SMF
import SystemPackage

/// The SoundFonts a synthesizer plays from: for each bank and program, the first SoundFont in
/// the stack that has it. A stack may differ by the song's standard (say, a GS SoundFont first
/// for GS songs); every SoundFont named is loaded once.
public struct SoundFontStack: Hashable, Sendable {
    /// The stack for every standard without one of its own; first wins.
    public var paths: [FilePath]
    /// Stacks for particular standards.
    public var pathsByMode: [MIDIMode: [FilePath]]
    /// The bank the song brings, above every standard's stack (``SongSoundBank``).
    public var songBank: SongSoundBank?

    public init(_ paths: [FilePath], byMode pathsByMode: [MIDIMode: [FilePath]] = [:], songBank: SongSoundBank? = nil) {
        self.paths = paths
        self.pathsByMode = pathsByMode
        self.songBank = songBank
    }

    /// This stack with `songBank` on top in place of its own.
    public func with(songBank: SongSoundBank?) -> SoundFontStack {
        var stack = self
        stack.songBank = songBank
        return stack
    }

    /// The stack that plays songs of `mode`.
    public func paths(for mode: MIDIMode) -> [FilePath] {
        pathsByMode[mode] ?? paths
    }

    /// Every SoundFont named, each once, in the order first named (the song's bank aside).
    public var allPaths: [FilePath] {
        var seen = Set<FilePath>()
        return (paths + MIDIMode.allCases.flatMap { pathsByMode[$0] ?? [] }).filter { seen.insert($0).inserted }
    }
}
