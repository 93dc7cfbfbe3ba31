import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Chooses the SoundFont file, in this order:
///
/// 1. `--soundfont`: a path, or a name found in the search folders;
/// 2. the configuration's `soundfont`, the same way;
/// 3. the first `.sf2`/`.sf3` file (in sorted order) in each search folder: the
///    repository's `SoundFonts/` folder, then `$XDG_DATA_HOME/smfplay/soundfonts`;
/// 4. the system locations: Debian's FluidR3_GM, `/usr/share/sounds/sf3/`, TimGM6mb.
///
/// ```swift
/// let path = try SoundFontLocator.standard(directories: directories)
///     .locate(requested: options.soundFont, configured: configuration.render.soundFont,
///             configurationFile: configuration.path)
/// ```
public struct SoundFontLocator: Sendable, Equatable {
    /// What Debian's packages install: fluid-soundfont-gm (the best of them, and the
    /// default), the sf3 folder (where musescore-general-soundfont and others put
    /// theirs), then timgm6mb-soundfont (small, and often there already).
    public static let debianLocations: [FilePath] = [
        "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf3",
        "/usr/share/sounds/sf2/TimGM6mb.sf2",
    ]

    /// The extensions of SoundFont files, compared without regard to case.
    public static let fileExtensions = ["sf2", "sf3"]

    /// Folders searched in order, for a name and for the first SoundFont in them.
    /// The last one is where the "nothing found" message suggests putting a file.
    public var searchFolders: [FilePath]
    /// Files and folders tried after the search folders; their folders are also
    /// searched for a name.
    public var systemLocations: [FilePath]
    /// Where relative paths start.
    public var workingDirectory: FilePath
    /// What `~` stands for; nil leaves `~` alone.
    public var home: FilePath?

    public init(
        searchFolders: [FilePath],
        systemLocations: [FilePath] = SoundFontLocator.debianLocations,
        workingDirectory: FilePath? = nil,
        home: FilePath? = nil
    ) {
        self.searchFolders = searchFolders
        self.systemLocations = systemLocations
        self.workingDirectory = workingDirectory ?? .currentDirectory
        self.home = home
    }

    /// The repository's `SoundFonts/` folder when smfplay runs from a checkout, the
    /// user's folder, and Debian's locations.
    public static func standard(
        directories: XDGDirectories,
        executable: FilePath? = .currentExecutable
    ) -> SoundFontLocator {
        let repository = executable.flatMap(repositoryFolder(forExecutable:))
        return SoundFontLocator(
            searchFolders: (repository.map { [$0] } ?? []) + [userFolder(in: directories)],
            home: directories.home
        )
    }

    /// `$XDG_DATA_HOME/smfplay/soundfonts`.
    public static func userFolder(in directories: XDGDirectories) -> FilePath {
        directories.dataFolder.appending("soundfonts")
    }

    /// The `SoundFonts/` folder of the checkout a program was built in: the first
    /// folder above it holding both `Package.swift` and `SoundFonts/`, as the build
    /// folders (`.build/debug/smfplay`) are inside the checkout.
    public static func repositoryFolder(forExecutable executable: FilePath) -> FilePath? {
        var folder = executable.absolute().containingFolder
        while true {
            let soundFonts = folder.appending("SoundFonts")
            if folder.appending("Package.swift").kind == .regular, soundFonts.kind == .directory {
                return soundFonts
            }
            if folder.components.isEmpty { return nil }
            folder = folder.containingFolder
        }
    }

    /// The absolute path of the SoundFont to use.
    ///
    /// - Parameters:
    ///   - requested: `--soundfont`, a path or a name.
    ///   - configured: the configuration's `soundfont`, a path or a name.
    ///   - configurationFile: the file `configured` came from, for messages.
    public func locate(
        requested: String?,
        configured: String?,
        configurationFile: FilePath? = nil
    ) throws(SoundFontLookupError) -> FilePath {
        if let requested {
            return try find(requested, source: .commandLine)
        }
        if let configured {
            return try find(configured, source: .configuration(path: configurationFile))
        }
        for folder in searchFolders {
            if let soundFont = firstSoundFont(in: folder) { return soundFont }
        }
        for location in systemLocations {
            switch location.kind {
            case .regular: return location
            case .directory: if let soundFont = firstSoundFont(in: location) { return soundFont }
            default: continue
            }
        }
        throw .nothingFound(searched: searchFolders + systemLocations, installFolder: searchFolders.last)
    }

    /// The absolute paths of a stack of SoundFonts, first wins: those requested on the command
    /// line, else those configured, else the one found in the usual places, with Debian's
    /// FluidR3_GS over FluidR3_GM when both are installed (the GS SoundFont holds only the Sound
    /// Canvas's sound effects and SFX kit, and is made to be stacked over the GM one).
    public func locate(
        requested: [String],
        configured: [String],
        configurationFile: FilePath? = nil
    ) throws(SoundFontLookupError) -> [FilePath] {
        if !requested.isEmpty {
            return try requested.map { name throws(SoundFontLookupError) in try find(name, source: .commandLine) }
        }
        if !configured.isEmpty {
            return try configured.map { name throws(SoundFontLookupError) in try find(name, source: .configuration(path: configurationFile)) }
        }
        let found = try locate(requested: nil, configured: nil, configurationFile: configurationFile)
        let companion = found.containingFolder.appending(Self.gsCompanion)
        let isGeneralMIDI = found.lastComponent == Self.gmWithCompanion
        return isGeneralMIDI && companion.kind == .regular && companion.isReadable ? [companion, found] : [found]
    }

    /// Debian's fluid-soundfont-gm and fluid-soundfont-gs.
    static let gmWithCompanion: FilePath.Component = "FluidR3_GM.sf2"
    static let gsCompanion: FilePath.Component = "FluidR3_GS.sf2"

    /// The folders searched for a name: the search folders, then the folders of the
    /// system locations (so `TimGM6mb` finds Debian's file).
    public var nameFolders: [FilePath] {
        var folders = searchFolders
        for location in systemLocations {
            let folder = location.lastComponent.map(Self.isSoundFontName) == true ? location.containingFolder : location
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    private func find(_ value: String, source: SoundFontLookupError.Source) throws(SoundFontLookupError) -> FilePath {
        guard value.contains("/") || value == "~" || value.hasPrefix("~/") else {
            return try find(name: value, source: source)
        }
        return try find(path: absolute(value), source: source)
    }

    private func find(path: FilePath, source: SoundFontLookupError.Source) throws(SoundFontLookupError) -> FilePath {
        switch path.kind {
        case nil:
            throw .missing(path: path, source: source)
        case .directory:
            guard let soundFont = firstSoundFont(in: path) else { throw .emptyFolder(path: path, source: source) }
            return soundFont
        case .regular:
            guard path.isReadable else { throw .unreadable(path: path, source: source) }
            return path
        default:
            throw .notAFile(path: path, source: source)
        }
    }

    /// A path as people write it, from `/`: `~` for the home folder, others from the working folder.
    private func absolute(_ value: String) -> FilePath {
        XDGDirectories.expandingTilde(in: value, home: home).absolute(in: workingDirectory)
    }

    private func find(name: String, source: SoundFontLookupError.Source) throws(SoundFontLookupError) -> FilePath {
        var searched = nameFolders
        // `--soundfont Piano.sf2` next to the file means that file, as with any command, and
        // `--soundfont Piano` a SoundFont so named there first; a name in the configuration does
        // not depend on where smfplay starts.
        if source == .commandLine {
            let path = absolute(name)
            if path.kind == .regular { return try find(path: path, source: source) }
            searched.insert(workingDirectory, at: 0)
        }
        for folder in searched {
            if let soundFont = soundFont(named: name, in: folder) { return soundFont }
        }
        let known = Set(searched.flatMap { soundFonts(in: $0).map { $0.stem } })
        throw .unknownName(name: name, source: source, searched: searched, known: known.sorted { $0.lowercased() < $1.lowercased() })
    }

    /// The SoundFont files in a folder, sorted. Hidden files are left out: macOS
    /// leaves `._Name.sf2` companions on shared drives that are not SoundFonts.
    private func soundFonts(in folder: FilePath) -> [FilePath.Component] {
        guard let names = folder.entryNames() else { return [] }
        return
            names
            .filter { !$0.bytes.starts(with: [UInt8(ascii: ".")]) && Self.isSoundFontName($0) }
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
            .filter { folder.appending($0).kind == .regular }
    }

    private func firstSoundFont(in folder: FilePath) -> FilePath? {
        soundFonts(in: folder).first.map { folder.appending($0).absolute(in: workingDirectory) }
    }

    /// `FluidR3_GM`, `FluidR3_GM.sf2` and `fluidr3_gm` all name `FluidR3_GM.sf2`; an exact
    /// match wins over one that differs in case.
    private func soundFont(named name: String, in folder: FilePath) -> FilePath? {
        let candidates = soundFonts(in: folder)
        let hasExtension = Self.isSoundFontName(FilePath.Component(name) ?? "-")
        func comparable(_ file: FilePath.Component) -> String {
            let text = file.text
            guard !hasExtension, let fileExtension = file.extension else { return text }
            return String(text.dropLast(fileExtension.count + 1))
        }
        let match =
            candidates.first { comparable($0) == name }
            ?? candidates.first { comparable($0).lowercased() == name.lowercased() }
        return match.map { folder.appending($0).absolute(in: workingDirectory) }
    }

    static func isSoundFontName(_ name: FilePath.Component) -> Bool {
        guard let fileExtension = name.extension else { return false }
        return fileExtensions.contains(fileExtension.lowercased())
    }
}
