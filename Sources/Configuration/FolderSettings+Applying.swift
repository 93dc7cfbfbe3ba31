import Synthesis

// How a song's folder settings change the command's: key by key, each key the command line set
// keeping the command's value.
extension FolderSettings {
    /// The song's settings: `command` (the configuration's with the command line's over them),
    /// with every key these settings set and `commandLine` does not name in place of the command's.
    /// A `soundfont` replaces the whole stack, for every standard (the configuration's
    /// `[soundfonts]` too), as `--soundfont` does; an effect turned on here that the command had
    /// off starts from FluidSynth's defaults, under this file's values. Throws when the song
    /// would play with SoundFonts a folder file names that are not there.
    public func applied(to command: SongSettings, commandLine: Set<Key>) throws(FolderSettingsError) -> SongSettings {
        /// A value set here, unless the command line set it.
        func chosen<Value>(_ key: Key, _ setting: Setting<Value>?) -> Value? {
            commandLine.contains(key) ? nil : setting?.value
        }
        var song = command
        if let soundFonts = chosen(.soundFont, soundFonts) {
            song.soundFonts = SoundFontStack(try soundFonts.located.get(), songBank: command.soundFonts.songBank)
        }
        if let midiMode = chosen(.midiMode, midiMode) { song.synthesizer.midiMode = midiMode }
        if let textEncoding = chosen(.textEncoding, textEncoding) { song.textEncoding = textEncoding }
        if let gain = chosen(.gain, gain) { song.synthesizer.gain = gain }
        if let transpose = chosen(.transpose, transpose) { song.performance.transpose = transpose }
        if let loops = chosen(.loops, loops) { song.loops.count(loops) }
        if let fade = chosen(.fade, fade) { song.loops.fadeSeconds = fade }

        var reverb = command.synthesizer.reverb
        if let enabled = chosen(.reverbEnabled, reverbEnabled) { reverb = enabled ? reverb ?? SynthesizerSettings.Reverb() : nil }
        if var changed = reverb {
            if let value = chosen(.reverbRoomSize, reverbRoomSize) { changed.roomSize = value }
            if let value = chosen(.reverbDamping, reverbDamping) { changed.damping = value }
            if let value = chosen(.reverbWidth, reverbWidth) { changed.width = value }
            if let value = chosen(.reverbLevel, reverbLevel) { changed.level = value }
            reverb = changed
        }
        song.synthesizer.reverb = reverb

        var chorus = command.synthesizer.chorus
        if let enabled = chosen(.chorusEnabled, chorusEnabled) { chorus = enabled ? chorus ?? SynthesizerSettings.Chorus() : nil }
        if var changed = chorus {
            if let value = chosen(.chorusVoices, chorusVoices) { changed.voices = value }
            if let value = chosen(.chorusLevel, chorusLevel) { changed.level = value }
            if let value = chosen(.chorusSpeed, chorusSpeed) { changed.speed = value }
            if let value = chosen(.chorusDepth, chorusDepth) { changed.depth = value }
            chorus = changed
        }
        song.synthesizer.chorus = chorus
        return song
    }
}
