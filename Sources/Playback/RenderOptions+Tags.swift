import AudioOutput
import SMF
import SystemPackage

extension RenderOptions {
    /// These options for one song: its tags (see ``AudioOutput/AudioFileTags/init(song:name:textEncoding:software:)``)
    /// with the software of ``tags``. `input` is the MIDI file's path, nil for standard input.
    public func tagging(_ file: MIDIFile, input: FilePath?) -> RenderOptions {
        var options = self
        options.tags = AudioFileTags(song: file, name: input?.stemText, textEncoding: textEncoding, software: tags.software)
        return options
    }
}
