import Configuration
import Synthesis
import SystemPackage
import Testing

/// The message a configuration text gives, or nil when it is accepted.
func message(_ text: String, path: FilePath = "config.toml") -> String? {
    do {
        _ = try Configuration(parsing: text, path: path)
        return nil
    } catch {
        return error.description
    }
}

struct BadValueTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let message: String
        var testDescription: String { message }
    }

    static let cases: [Case] = [
        Case(text: #"gain = "loud""#, message: #"config.toml:1: key 'gain' must be a number from 0 to 10, not "loud""#),
        Case(text: "gain = 10.5", message: "config.toml:1: key 'gain' must be a number from 0 to 10, not 10.5"),
        Case(text: "gain = nan", message: "config.toml:1: key 'gain' must be a number from 0 to 10, not nan"),
        Case(text: "gain = -inf", message: "config.toml:1: key 'gain' must be a number from 0 to 10, not -inf"),
        Case(text: "gain = 1979-05-27", message: "config.toml:1: key 'gain' must be a number from 0 to 10, not a date"),
        Case(text: "gain = [0.5]", message: "config.toml:1: key 'gain' must be a number from 0 to 10, not an array"),
        Case(text: "# quiet\n\n[reverb]\nlevel = \"loud\"", message: #"config.toml:4: key 'reverb.level' must be a number from 0 to 1, not "loud""#),
        Case(text: "sample_rate = 44100.5", message: "config.toml:1: key 'sample_rate' must be a whole number from 8000 to 96000, not 44100.5"),
        Case(text: "sample_rate = 4000", message: "config.toml:1: key 'sample_rate' must be a whole number from 8000 to 96000, not 4000"),
        Case(text: "sample_rate = \"48k\"", message: #"config.toml:1: key 'sample_rate' must be a whole number from 8000 to 96000, not "48k""#),
        Case(
            text: "soundfont = []",
            message: "config.toml:1: key 'soundfont' must be a SoundFont path or name in quotes, or a list of them, not an array"),
        Case(
            text: "soundfont = [\"A\", 3]",
            message: "config.toml:1: key 'soundfont' must be a SoundFont path or name in quotes, or a list of them, not an array"),
        Case(
            text: "[soundfonts]\nxg = \"\"",
            message: #"config.toml:2: key 'soundfonts.xg' must be a SoundFont path or name in quotes, or a list of them, not """#),
        Case(text: "midi_mode = \"sc55\"", message: #"config.toml:1: key 'midi_mode' must be "auto", "gm", "gs", "xg" or "gm2", not "sc55""#),
        Case(text: "polyphony = 0", message: "config.toml:1: key 'polyphony' must be a whole number from 1 to 65535, not 0"),
        Case(
            text: "interpolation = \"fast\"", message: #"config.toml:1: key 'interpolation' must be "none", "linear", "cubic" or "sinc", not "fast""#),
        Case(text: "interpolation = 4", message: #"config.toml:1: key 'interpolation' must be "none", "linear", "cubic" or "sinc", not 4"#),
        Case(text: "[chorus]\n\n# on\nenabled = \"yes\"", message: #"config.toml:4: key 'chorus.enabled' must be true or false, not "yes""#),
        Case(text: "[chorus]\nvoices = 100", message: "config.toml:2: key 'chorus.voices' must be a whole number from 0 to 99, not 100"),
        Case(text: "[chorus]\nspeed = 0", message: "config.toml:2: key 'chorus.speed' must be a number from 0.1 to 5, not 0"),
        Case(text: "[chorus]\ndepth = 300.0", message: "config.toml:2: key 'chorus.depth' must be a number from 0 to 256, not 300.0"),
        Case(text: "[chorus]\nlevel = true", message: "config.toml:2: key 'chorus.level' must be a number from 0 to 10, not true"),
        Case(text: "[reverb]\nroom_size = 2", message: "config.toml:2: key 'reverb.room_size' must be a number from 0 to 1, not 2"),
        Case(text: "[reverb]\ndamping = -0.1", message: "config.toml:2: key 'reverb.damping' must be a number from 0 to 1, not -0.1"),
        Case(text: "[reverb]\nwidth = 101", message: "config.toml:2: key 'reverb.width' must be a number from 0 to 100, not 101"),
        Case(text: "[reverb]\nenabled = 1", message: "config.toml:2: key 'reverb.enabled' must be true or false, not 1"),
        Case(text: "tail = -1", message: "config.toml:1: key 'tail' must be a number from 0 to 60, not -1"),
        Case(text: "tail = 61", message: "config.toml:1: key 'tail' must be a number from 0 to 60, not 61"),
        Case(text: "jobs = 0", message: #"config.toml:1: key 'jobs' must be "auto" or a whole number from 1 up, not 0"#),
        Case(text: "jobs = \"all\"", message: #"config.toml:1: key 'jobs' must be "auto" or a whole number from 1 up, not "all""#),
        Case(text: "[audio]\ncores = 0", message: #"config.toml:2: key 'audio.cores' must be "auto" or a whole number from 1 to 64, not 0"#),
        Case(
            text: "[audio]\ncores = \"all\"", message: #"config.toml:2: key 'audio.cores' must be "auto" or a whole number from 1 to 64, not "all""#),
        Case(text: "format = \"wma\"", message: #"config.toml:1: key 'format' must be "wav", "flac", "ogg", "mp3", "opus" or "aiff", not "wma""#),
        Case(text: "format = \"WAV\"", message: #"config.toml:1: key 'format' must be "wav", "flac", "ogg", "mp3", "opus" or "aiff", not "WAV""#),
        Case(text: "quality = 11", message: "config.toml:1: key 'quality' must be a number from 0 to 10, not 11"),
        Case(text: "quality = \"best\"", message: #"config.toml:1: key 'quality' must be a number from 0 to 10, not "best""#),
        Case(text: "bits = 32", message: #"config.toml:1: key 'bits' must be "16", "24" or "32f", not 32"#),
        Case(text: "bits = 32.0", message: #"config.toml:1: key 'bits' must be "16", "24" or "32f", not 32.0"#),
        Case(text: "format = \"flac\"\nbits = \"32f\"", message: #"config.toml:2: key 'bits' must be "16" or "24" for flac files, not "32f""#),
        Case(text: "bits = \"32f\"\n\nformat = \"flac\"", message: #"config.toml:1: key 'bits' must be "16" or "24" for flac files, not "32f""#),
        Case(text: "soundfont = 5", message: "config.toml:1: key 'soundfont' must be a SoundFont path or name in quotes, or a list of them, not 5"),
        Case(
            text: "soundfont = \"\"",
            message: #"config.toml:1: key 'soundfont' must be a SoundFont path or name in quotes, or a list of them, not """#),
        Case(
            text: "library = \"Music/MIDI\"",
            message: #"config.toml:1: key 'library' must be a folder path in quotes that starts with / or ~/, not "Music/MIDI""#),
        Case(
            text: "library = \"~zoë/MIDI\"",
            message: #"config.toml:1: key 'library' must be a folder path in quotes that starts with / or ~/, not "~zoë/MIDI""#),
        Case(text: "library = \"\"", message: #"config.toml:1: key 'library' must be a folder path in quotes that starts with / or ~/, not """#),
        Case(
            text: "library = [\"/a\"]", message: "config.toml:1: key 'library' must be a folder path in quotes that starts with / or ~/, not an array"
        ),
        // `library` is one folder, not a table of library settings.
        Case(
            text: "gain = 1\n[library]\nroots = [\"~/MIDI\"]",
            message: "config.toml:2: key 'library' must be a folder path in quotes that starts with / or ~/, not a table"),
        Case(text: "reverb = 3", message: "config.toml:1: key 'reverb' must be a table such as [reverb], not 3"),
        Case(text: "chorus = [1, 2]", message: "config.toml:1: key 'chorus' must be a table such as [chorus], not an array"),
        // Dotted keys and inline tables are the same tables written another way.
        Case(text: "gain = 1\nchorus.speed = 0", message: "config.toml:2: key 'chorus.speed' must be a number from 0.1 to 5, not 0"),
        Case(
            text: "\nreverb = { width = 1, level = [1,\n  2] }",
            message: "config.toml:2: key 'reverb.level' must be a number from 0 to 1, not an array"),
        Case(text: "[reverb]\n\"level\" = true", message: "config.toml:2: key 'reverb.level' must be a number from 0 to 1, not true"),
        // A key-like line inside a multi-line string is text, not a key.
        Case(
            text: "# x\nsoundfont = \"\"\"\nlevel = 3\ngain = 3\n\"\"\"\n[reverb]\nlevel = 2.0",
            message: #"config.toml:7: key 'reverb.level' must be a number from 0 to 1, not 2.0"#),
        Case(
            text: "soundfont = '''\n[reverb]\n'''\n[reverb]\n\nlevel = 2",
            message: "config.toml:6: key 'reverb.level' must be a number from 0 to 1, not 2"),
        // Values are quoted as TOML writes them, and long ones are cut, so the message stays one line.
        Case(
            text: #"format = "w\"a\"v\n""#,
            message: #"config.toml:1: key 'format' must be "wav", "flac", "ogg", "mp3", "opus" or "aiff", not "w\"a\"v\n""#),
        Case(
            text: "format = \"\(String(repeating: "é", count: 50))\"",
            message: #"config.toml:1: key 'format' must be "wav", "flac", "ogg", "mp3", "opus" or "aiff", not ""# + String(repeating: "é", count: 40)
                + #"…""#),
    ]

    @Test(arguments: cases)
    func badValueNamesFileLineKeyAndValue(_ example: Case) {
        #expect(message(example.text) == example.message)
    }

    @Test func theFirstProblemInTheFileIsReported() {
        #expect(message("[reverb]\nlevel = 2\n[chorus]\nbogus = 1") == "config.toml:2: key 'reverb.level' must be a number from 0 to 1, not 2")
        #expect(message("bogus = 1\n[reverb]\nlevel = 2") == "config.toml:1: unknown key 'bogus'")
        #expect(message("tail = 99\ngain = 99") == "config.toml:1: key 'tail' must be a number from 0 to 60, not 99")
    }

    @Test func thePathIsWrittenAsGiven() {
        let path: FilePath = "/home/zoë/Música/ショパン/config.toml"
        #expect(message("gain = 11", path: path) == "\(path):1: key 'gain' must be a number from 0 to 10, not 11")
    }
}

struct AcceptedValueTests {
    @Test func numbersMayBeWrittenEitherWay() throws {
        let render = try Configuration(parsing: "gain = 1\nsample_rate = 48000.0\ntail = 0\n[reverb]\nwidth = 100", path: "c.toml").render
        #expect(render.gain == 1.0)
        #expect(render.sampleRate == 48000)
        #expect(render.tail == 0)
        #expect(render.reverb.width == 100)
    }

    @Test func bitsMayBeAnInteger() throws {
        #expect(try Configuration(parsing: "bits = 24", path: "c.toml").render.bits == .pcm24)
        #expect(try Configuration(parsing: "bits = 16", path: "c.toml").render.bits == .pcm16)
    }

    @Test func jobsAutoMeansOnePerCore() throws {
        let render = try Configuration(parsing: "jobs = \"auto\"", path: "c.toml").render
        #expect(render.jobs == nil)
        #expect(render.jobCount(processorCount: 6) == 6)
        #expect(RenderSettings(jobs: 2).jobCount(processorCount: 6) == 2)
    }

    @Test func tablesMayBeWrittenInlineOrDotted() throws {
        let inline = try Configuration(parsing: "reverb = { level = 0.5, enabled = false }", path: "c.toml").render
        let dotted = try Configuration(parsing: "reverb.level = 0.5\nreverb.enabled = false", path: "c.toml").render
        #expect(inline.reverb == SynthesizerSettings.Reverb(level: 0.5))
        #expect(!inline.isReverbEnabled)
        #expect(dotted == inline)
    }

    @Test func emptyTextIsTheDefaults() throws {
        #expect(try Configuration(parsing: "", path: "c.toml") == Configuration(path: "c.toml"))
        #expect(try Configuration(parsing: "\u{FEFF}# only a comment\n[reverb]\n", path: "c.toml").render == RenderSettings())
    }

    @Test func soundFontPathsStartAtTheFilesFolder() throws {
        func soundFont(_ value: String, in path: FilePath = "/home/zoë/.config/smfplay/config.toml") throws -> String? {
            try Configuration(parsing: "soundfont = \"\(value)\"", path: path).render.soundFonts.first
        }
        #expect(try soundFont("fonts/Arachno.sf2") == "/home/zoë/.config/smfplay/fonts/Arachno.sf2")
        #expect(try soundFont("./Arachno.sf2") == "/home/zoë/.config/smfplay/./Arachno.sf2")
        #expect(try soundFont("fonts/A.sf2", in: "config.toml") == "./fonts/A.sf2")
        // Absolute paths, home paths and bare names are left for SoundFontLocator.
        #expect(try soundFont("/usr/share/sounds/sf2/TimGM6mb.sf2") == "/usr/share/sounds/sf2/TimGM6mb.sf2")
        #expect(try soundFont("~/SoundFonts/Arachno.sf2") == "~/SoundFonts/Arachno.sf2")
        #expect(try soundFont("TimGM6mb") == "TimGM6mb")
    }

    @Test func soundFontStacksAndMidiMode() throws {
        let text = """
            soundfont = ["FluidR3_GS", "fonts/My.sf2"]
            midi_mode = "auto"
            [soundfonts]
            gm2 = "GM2.sf2"
            """
        let render = try Configuration(parsing: text, path: "/c/config.toml").render
        #expect(render.soundFonts == ["FluidR3_GS", "/c/fonts/My.sf2"])
        #expect(render.soundFontsByStandard == [.gm2: ["GM2.sf2"]])
        #expect(render.midiMode == nil)
        #expect(message("[soundfonts]\nsc55 = \"x\"")?.contains("sc55") == true, "an unknown standard is an unknown key")
    }
}

struct LibraryRootTests {
    static let directories = XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_MUSIC_DIR": "/home/zoë/Música"])

    func root(_ text: String) throws -> FilePath {
        try Configuration(parsing: text, path: "c.toml").libraryRoot(in: Self.directories)
    }

    @Test func theDefaultIsTheMIDIFolderInTheMusicFolder() throws {
        #expect(try root("") == "/home/zoë/Música/MIDI")
        #expect(
            Configuration().libraryRoot(in: XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": "/nonexistent"]))
                == "/home/zoë/Music/MIDI")
    }

    @Test func tildeIsTheHomeFolder() throws {
        #expect(try root(#"library = "~/Noten/MIDI/""#) == "/home/zoë/Noten/MIDI")
        #expect(try root(#"library = "~""#) == "/home/zoë")
    }

    @Test func absolutePathsAreTakenAsWritten() throws {
        #expect(try root(#"library = "/srv//music/./midi""#) == "/srv/music/midi")
        #expect(try root(#"library = "/""#) == "/")
    }
}

struct UnknownKeyTests {
    @Test(arguments: [
        ("gian = 0.5", "config.toml:1: unknown key 'gian' (did you mean 'gain'?)"),
        ("Gain = 0.5", "config.toml:1: unknown key 'Gain' (did you mean 'gain'?)"),
        ("sample-rate = 48000", "config.toml:1: unknown key 'sample-rate' (did you mean 'sample_rate'?)"),
        ("\"sample rate\" = 48000", #"config.toml:1: unknown key '"sample rate"' (did you mean 'sample_rate'?)"#),
        ("\n\n[reverb]\nvoices = 3", "config.toml:4: unknown key 'reverb.voices' (did you mean 'chorus.voices'?)"),
        ("[reverb]\nlevle = 0.5", "config.toml:2: unknown key 'reverb.levle' (did you mean 'reverb.level'?)"),
        ("level = 0.5", "config.toml:1: unknown key 'level' (did you mean 'reverb.level'?)"),
        ("[reverbb]\nlevel = 1", "config.toml:1: unknown key 'reverbb' (did you mean 'reverb'?)"),
        ("[reverb.early]\nlevel = 1", "config.toml:1: unknown key 'reverb.early'"),
        ("colour = \"blue\"", "config.toml:1: unknown key 'colour'"),
        ("gain = 1\n[history]\nroots = [\"~/MIDI\"]", "config.toml:2: unknown key 'history'"),
        ("[chorus]\nenabled = true\n\"é\" = 1", #"config.toml:3: unknown key 'chorus."é"'"#),
    ])
    func unknownKeyNamesLineAndClosestKey(_ text: String, _ expected: String) {
        #expect(message(text) == expected)
    }
}

struct SyntaxErrorTests {
    @Test(arguments: [
        ("gain = ", "config.toml:1:8: key 'gain': Error while parsing key-value pair: encountered end-of-file"),
        ("gain = 0.5\n[reverb\nlevel = 1", #"config.toml:2:8: key 'reverb': Error while parsing table header: expected ']', saw '\n'"#),
        ("gain = 0.5\ngain = 0.6", "config.toml:2:8: Error while parsing key-value pair: cannot redefine existing floating-point 'gain'"),
        ("[reverb]\n[reverb]", "config.toml:2:1: Error while parsing table header: cannot redefine existing table 'reverb'"),
        (
            "[chorus]\nlevel = 0,5",
            "config.toml:2:10: key 'chorus.level': Error while parsing key-value pair: expected a comment or whitespace, saw ','"
        ),
        (
            "gain = 0.5\n\n  sample_rate = 4_4100_\n",
            "config.toml:3:24: key 'sample_rate': Error while parsing decimal integer: underscores must be followed by digits"
        ),
        (
            "soundfont = \"Arachno.sf2\n",
            "config.toml:1:25: key 'soundfont': Error while parsing string: unescaped control characters other than TAB (U+0009) are explicitly prohibited"
        ),
        // toml++ would stop the program here: refused before it sees the text.
        ("gain = 0.5\nloops = [1, }\n", "config.toml:2:13: key 'loops': Error while parsing array: expected value or closing ']', saw '}'"),
        (
            "gain = 0.5\n[\nlevel = 1",
            #"config.toml:2:2: Error while parsing table header: expected bare key starting character or string delimiter, saw '\n'"#
        ),
        (
            "[\rrender]",
            #"config.toml:1:2: key 'render': Error while parsing table header: expected bare key starting character or string delimiter, saw '\r'"#
        ),
        (
            "[[[audio]]]",
            #"config.toml:1:3: key '"[audio"': Error while parsing table header: expected bare key starting character or string delimiter, saw '['"#
        ),
        (
            "[[ # x",
            ##"config.toml:1:4: key '"#"': Error while parsing table header: expected bare key starting character or string delimiter, saw '#'"##
        ),
        (
            "[reverb]\nlevel = { x = ]",
            "config.toml:2:15: key 'reverb.level.x': Error while parsing key-value pair: expected value, saw ']'"
        ),
    ])
    func syntaxErrorGivesFileLineColumnAndKey(_ text: String, _ expected: String) {
        #expect(message(text) == expected)
    }

    @Test func aNULCharacterIsRefusedWhereItIs() {
        #expect(message("gain = 0.5\nta\u{0}il = 1") == "config.toml:2:3: a NUL character is not allowed in a TOML file")
    }
}
