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
    public static let debianLocations = [
        "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf3",
        "/usr/share/sounds/sf2/TimGM6mb.sf2",
    ]

    /// The extensions of SoundFont files, compared without regard to case.
    public static let fileExtensions = ["sf2", "sf3"]

    /// Folders searched in order, for a name and for the first SoundFont in them.
    /// The last one is where the "nothing found" message suggests putting a file.
    public var searchFolders: [String]
    /// Files and folders tried after the search folders; their folders are also
    /// searched for a name.
    public var systemLocations: [String]
    /// Where relative paths start.
    public var workingDirectory: String
    /// What `~` stands for; nil leaves `~` alone.
    public var home: String?

    public init(
        searchFolders: [String],
        systemLocations: [String] = SoundFontLocator.debianLocations,
        workingDirectory: String? = nil,
        home: String? = nil
    ) {
        self.searchFolders = searchFolders
        self.systemLocations = systemLocations
        self.workingDirectory = workingDirectory ?? FileSystem.currentDirectory() ?? "/"
        self.home = home
    }

    /// The repository's `SoundFonts/` folder when smfplay runs from a checkout, the
    /// user's folder, and Debian's locations.
    public static func standard(
        directories: XDGDirectories,
        executable: String? = SoundFontLocator.currentExecutable()
    ) -> SoundFontLocator {
        let repository = executable.flatMap(repositoryFolder(forExecutable:))
        return SoundFontLocator(
            searchFolders: (repository.map { [$0] } ?? []) + [userFolder(in: directories)],
            home: directories.home
        )
    }

    /// `$XDG_DATA_HOME/smfplay/soundfonts`.
    public static func userFolder(in directories: XDGDirectories) -> String {
        PathText.join(PathText.join(directories.dataHome, XDGDirectories.applicationName), "soundfonts")
    }

    /// The running program's path (`/proc/self/exe`), or nil where there is none.
    public static func currentExecutable() -> String? {
        FileSystem.currentExecutable()
    }

    /// The `SoundFonts/` folder of the checkout a program was built in: the first
    /// folder above it holding both `Package.swift` and `SoundFonts/`, as the build
    /// folders (`.build/debug/smfplay`) are inside the checkout.
    public static func repositoryFolder(forExecutable executable: String) -> String? {
        let executable = PathText.absolute(executable, workingDirectory: FileSystem.currentDirectory() ?? "/", home: nil)
        var folder = PathText.parent(of: executable)
        while true {
            let soundFonts = PathText.join(folder, "SoundFonts")
            if FileSystem.kind(at: PathText.join(folder, "Package.swift")) == .file,
               FileSystem.kind(at: soundFonts) == .folder {
                return soundFonts
            }
            if folder == "/" { return nil }
            folder = PathText.parent(of: folder)
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
        configurationFile: String? = nil
    ) throws(SoundFontLookupError) -> String {
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
            switch FileSystem.kind(at: location) {
            case .file: return location
            case .folder: if let soundFont = firstSoundFont(in: location) { return soundFont }
            case .other, nil: continue
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
        configurationFile: String? = nil
    ) throws(SoundFontLookupError) -> [String] {
        if !requested.isEmpty {
            return try requested.map { name throws(SoundFontLookupError) in try find(name, source: .commandLine) }
        }
        if !configured.isEmpty {
            return try configured.map { name throws(SoundFontLookupError) in try find(name, source: .configuration(path: configurationFile)) }
        }
        let found = try locate(requested: nil, configured: nil, configurationFile: configurationFile)
        let companion = PathText.join(PathText.parent(of: found), Self.gsCompanion)
        let isGeneralMIDI = found.hasSuffix("/" + Self.gmWithCompanion)
        return isGeneralMIDI && FileSystem.kind(at: companion) == .file && FileSystem.isReadable(companion) ? [companion, found] : [found]
    }

    /// Debian's fluid-soundfont-gm and fluid-soundfont-gs.
    static let gmWithCompanion = "FluidR3_GM.sf2"
    static let gsCompanion = "FluidR3_GS.sf2"

    /// The folders searched for a name: the search folders, then the folders of the
    /// system locations (so `TimGM6mb` finds Debian's file).
    public var nameFolders: [String] {
        var folders = searchFolders
        for location in systemLocations {
            let folder = Self.isSoundFontName(location) ? PathText.parent(of: location) : location
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    private func find(_ value: String, source: SoundFontLookupError.Source) throws(SoundFontLookupError) -> String {
        guard value.contains("/") || value == "~" || value.hasPrefix("~/") else {
            return try find(name: value, source: source)
        }
        let path = PathText.absolute(value, workingDirectory: workingDirectory, home: home)
        switch FileSystem.kind(at: path) {
        case nil:
            throw .missing(path: path, source: source)
        case .other:
            throw .notAFile(path: path, source: source)
        case .folder:
            guard let soundFont = firstSoundFont(in: path) else { throw .emptyFolder(path: path, source: source) }
            return soundFont
        case .file:
            guard FileSystem.isReadable(path) else { throw .unreadable(path: path, source: source) }
            return path
        }
    }

    private func find(name: String, source: SoundFontLookupError.Source) throws(SoundFontLookupError) -> String {
        var searched = nameFolders
        // `--soundfont Piano.sf2` next to the file means that file, as with any
        // command; a name in the configuration does not depend on where smfplay starts.
        if source == .commandLine {
            let path = PathText.absolute(name, workingDirectory: workingDirectory, home: home)
            if FileSystem.kind(at: path) == .file { return try find(path, source: source) }
            searched.insert(workingDirectory, at: 0)
        }
        for folder in nameFolders {
            if let soundFont = soundFont(named: name, in: folder) { return soundFont }
        }
        throw .unknownName(name: name, source: source, searched: searched)
    }

    /// The SoundFont files in a folder, sorted. Hidden files are left out: macOS
    /// leaves `._Name.sf2` companions on shared drives that are not SoundFonts.
    private func soundFonts(in folder: String) -> [String] {
        guard let names = FileSystem.names(inFolder: folder) else { return [] }
        return names
            .filter { !$0.hasPrefix(".") && Self.isSoundFontName($0) }
            .sorted()
            .filter { FileSystem.kind(at: PathText.join(folder, $0)) == .file }
    }

    private func firstSoundFont(in folder: String) -> String? {
        soundFonts(in: folder).first.map { PathText.absolute(PathText.join(folder, $0), workingDirectory: workingDirectory, home: home) }
    }

    /// `FluidR3_GM`, `FluidR3_GM.sf2` and `fluidr3_gm` all name `FluidR3_GM.sf2`; an exact
    /// match wins over one that differs in case.
    private func soundFont(named name: String, in folder: String) -> String? {
        let candidates = soundFonts(in: folder)
        let hasExtension = Self.isSoundFontName(name)
        func comparable(_ file: String) -> String { hasExtension ? file : Self.stem(of: file) }
        let match = candidates.first { comparable($0) == name }
            ?? candidates.first { comparable($0).lowercased() == name.lowercased() }
        return match.map { PathText.absolute(PathText.join(folder, $0), workingDirectory: workingDirectory, home: home) }
    }

    static func isSoundFontName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return fileExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }
}
