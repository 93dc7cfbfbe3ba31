import Configuration

// The folder-file keys each option group sets when given: the keys no `.smfplay.toml` overrides
// (`FolderSettings.applied(to:commandLine:)`). A play or render command names them with
// `sound.folderKeys ∪ performance.folderKeys ∪ text.folderKeys`.

extension SoundOptions {
    var folderKeys: Set<FolderSettings.Key> {
        var keys: Set<FolderSettings.Key> = []
        if !soundFonts.isEmpty { keys.insert(.soundFont) }
        if midiMode != nil { keys.insert(.midiMode) }
        if gain != nil { keys.insert(.gain) }
        // `--no-reverb` turns the reverb off whatever a folder says; its parameters then do nothing.
        if noReverb { keys.insert(.reverbEnabled) }
        if noChorus { keys.insert(.chorusEnabled) }
        return keys
    }
}

extension PerformanceOptions {
    var folderKeys: Set<FolderSettings.Key> {
        var keys: Set<FolderSettings.Key> = []
        if transpose != nil { keys.insert(.transpose) }
        if loops != nil { keys.insert(.loops) }
        if fade != nil { keys.insert(.fade) }
        return keys
    }
}

extension TextEncodingOption {
    var folderKeys: Set<FolderSettings.Key> {
        textEncoding == nil ? [] : [.textEncoding]
    }
}
