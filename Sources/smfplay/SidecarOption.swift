import ArgumentParser
import Configuration

/// `--no-sidecar`: of the commands that make sound (through ``SoundOptions``) and of `info`, which
/// says what they would hear.
struct SidecarOption: ParsableArguments {
    @Flag(
        help:
            "Ignore sound banks beside songs (SONG.sf2, Folder/Folder.sf2, a folder's only bank). Default: the configuration's sidecar_soundfonts, else on."
    )
    var noSidecar = false

    /// The command line over the configuration.
    func apply(to settings: inout RenderSettings) {
        if noSidecar { settings.sidecarSoundFonts = false }
    }
}

extension SidecarOption: ArgumentChecks {
}
