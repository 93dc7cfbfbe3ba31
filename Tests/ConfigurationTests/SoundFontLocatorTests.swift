import Configuration
import Foundation
import SystemPackage
import Testing

/// A checkout, a user folder and a stand-in for Debian's locations, all in a
/// temporary folder, so that the order can be tested whatever the machine has.
final class SoundFontWorld {
    let folder: TemporaryFolder
    let repository: FilePath
    let user: FilePath
    let fluid: FilePath
    let sf3: FilePath
    let timidity: FilePath
    let workingDirectory: FilePath
    let home: FilePath

    init() throws {
        folder = try TemporaryFolder()
        repository = try folder.makeFolder("checkout/SoundFonts")
        user = try folder.makeFolder("home/.local/share/smfplay/soundfonts")
        try folder.makeFolder("usr/share/sounds/sf2")
        fluid = folder.filePath.appending("usr/share/sounds/sf2/FluidR3_GM.sf2")
        sf3 = folder.filePath.appending("usr/share/sounds/sf3")
        timidity = folder.filePath.appending("usr/share/sounds/sf2/TimGM6mb.sf2")
        workingDirectory = try folder.makeFolder("Música/Bach")
        home = folder.filePath.appending("home")
    }

    var locator: SoundFontLocator {
        SoundFontLocator(
            searchFolders: [repository, user],
            systemLocations: [fluid, sf3, timidity],
            workingDirectory: workingDirectory,
            home: home
        )
    }

    @discardableResult
    func add(_ path: FilePath) throws -> FilePath {
        try folder.write(String(path.string.dropFirst(folder.path.count + 1)), "RIFF")
    }

    func locate(requested: String? = nil, configured: String? = nil) throws(SoundFontLookupError) -> FilePath {
        try locator.locate(requested: requested, configured: configured, configurationFile: "/home/zoë/.config/smfplay/config.toml")
    }
}

struct SoundFontLocatorTests {
    @Test func debiansGSSoundFontIsStackedOverTheGMOneWhenNothingIsAsked() throws {
        let world = try SoundFontWorld()
        try world.add(world.fluid)
        let stack = { () throws(SoundFontLookupError) -> [FilePath] in try world.locator.locate(requested: [], configured: []) }
        #expect(try stack() == [world.fluid])
        let gs = try world.add(world.folder.filePath.appending("usr/share/sounds/sf2/FluidR3_GS.sf2"))
        #expect(try stack() == [gs, world.fluid])
        // What is asked for is what plays, alone.
        #expect(try world.locator.locate(requested: [world.fluid.string], configured: []) == [world.fluid])
        #expect(try world.locator.locate(requested: [], configured: ["FluidR3_GM"]) == [world.fluid])
        #expect(try world.locator.locate(requested: [world.fluid.string, "FluidR3_GS"], configured: ["x"]) == [world.fluid, gs])
    }

    @Test func eachPlaceIsTriedInOrder() throws {
        let world = try SoundFontWorld()
        #expect(throws: SoundFontLookupError.self) { try world.locate() }

        try world.add(world.timidity)
        #expect(try world.locate() == world.timidity)

        // Debian's alternatives link, left dangling, is passed over.
        try FileManager.default.createDirectory(atPath: world.sf3.string, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: (world.sf3 + "/default-GM.sf3").string, withDestinationPath: "/nonexistent/FluidR3_GM.sf2")
        #expect(try world.locate() == world.timidity)
        let musescore = try world.add(world.sf3 + "/MuseScore_General.sf3")
        #expect(try world.locate() == musescore)

        try world.add(world.fluid)
        #expect(try world.locate() == world.fluid)

        let user = try world.add(world.user + "/Zebra.sf2")
        #expect(try world.locate() == user)

        // Sorted order; hidden files and other files are not SoundFonts.
        try world.add(world.repository + "/README.md")
        try world.add(world.repository + "/._Arachno.sf2")
        try world.add(world.repository + "/b.SF2")
        let first = try world.add(world.repository + "/Arachno Soundfont.sf3")
        #expect(try world.locate() == first)

        let configured = try world.add(world.folder.filePath + "/Configured.sf2")
        #expect(try world.locate(configured: configured.string) == configured)

        let requested = try world.add(world.folder.filePath + "/Requested.sf2")
        #expect(try world.locate(requested: requested.string, configured: configured.string) == requested)
    }

    @Test func nothingFoundListsEveryPlace() throws {
        let world = try SoundFontWorld()
        let error = #expect(throws: SoundFontLookupError.self) { try world.locate() }
        #expect(error == .nothingFound(searched: [world.repository, world.user, world.fluid, world.sf3, world.timidity], installFolder: world.user))
        #expect(
            error?.description
                == "no SoundFont found; looked in: \(world.repository), \(world.user), \(world.fluid), \(world.sf3), \(world.timidity); install fluid-soundfont-gm or put a .sf2 file in \(world.user)"
        )
    }

    @Test func aNameIsLookedForInEveryFolder() throws {
        let world = try SoundFontWorld()
        try world.add(world.timidity)
        try world.add(world.fluid)
        #expect(try world.locate(requested: "TimGM6mb") == world.timidity)
        #expect(try world.locate(requested: "timgm6mb.SF2") == world.timidity)
        #expect(try world.locate(configured: "TimGM6mb.sf2") == world.timidity)

        let user = try world.add(world.user + "/Arachno.sf3")
        #expect(try world.locate(requested: "Arachno") == user)
        // An earlier folder wins.
        let repository = try world.add(world.repository + "/Arachno.sf2")
        #expect(try world.locate(requested: "Arachno") == repository)
        #expect(try world.locate(requested: "Arachno.sf3") == user)

        // The exact spelling wins over one that differs only in case, whatever the sort order.
        try world.add(world.user + "/Piano.sf2")
        let lower = try world.add(world.user + "/piano.sf2")
        #expect(try world.locate(requested: "piano") == lower)
    }

    @Test func anUnknownNameListsTheFoldersAndTheSoundFontsInThem() throws {
        let world = try SoundFontWorld()
        try world.add(world.fluid)
        let folders = [world.repository, world.user, world.folder.filePath + "/usr/share/sounds/sf2", world.sf3]
        let requested = #expect(throws: SoundFontLookupError.self) { try world.locate(requested: "Dvořák Piano") }
        #expect(
            requested == .unknownName(name: "Dvořák Piano", source: .commandLine, searched: [world.workingDirectory] + folders, known: ["FluidR3_GM"])
        )
        #expect(
            requested?.description
                == "--soundfont: no SoundFont named 'Dvořák Piano' in \(([world.workingDirectory] + folders).map(\.string).joined(separator: ", ")); there: FluidR3_GM"
        )

        let configured = #expect(throws: SoundFontLookupError.self) { try world.locate(configured: "Dvořák Piano") }
        #expect(
            configured?.description
                == "soundfont in /home/zoë/.config/smfplay/config.toml: no SoundFont named 'Dvořák Piano' in \(folders.map(\.string).joined(separator: ", ")); there: FluidR3_GM"
        )
    }

    @Test func aMisspeltNameIsCorrected() throws {
        let world = try SoundFontWorld()
        try world.add(world.fluid)
        let error = #expect(throws: SoundFontLookupError.self) { try world.locate(requested: "fluidr3-gm") }
        #expect(
            error?.description.hasPrefix("--soundfont: no SoundFont named 'fluidr3-gm' (did you mean 'FluidR3_GM'?) in ") == true,
            "\(String(describing: error))")
    }

    @Test func aNameInTheWorkingFolderIsThatFileOnTheCommandLineOnly() throws {
        let world = try SoundFontWorld()
        let local = try world.add(world.workingDirectory + "/Local.sf2")
        #expect(try world.locate(requested: "Local.sf2") == local)
        // By its name alone too, as the message of a name not found says the folder is searched.
        #expect(try world.locate(requested: "local") == local)
        #expect(throws: SoundFontLookupError.self) { try world.locate(configured: "Local.sf2") }
        #expect(throws: SoundFontLookupError.self) { try world.locate(configured: "Local") }
    }

    @Test func aMissingPathIsAnErrorNotAFallBack() throws {
        let world = try SoundFontWorld()
        try world.add(world.fluid)
        let home = #expect(throws: SoundFontLookupError.self) { try world.locate(requested: "~/Fonts/Missing.sf2") }
        #expect(home == .missing(path: world.home + "/Fonts/Missing.sf2", source: .commandLine))
        #expect(home?.description == "--soundfont: no such file: \(world.home)/Fonts/Missing.sf2")

        let relative = #expect(throws: SoundFontLookupError.self) { try world.locate(requested: "./fonts/Missing.sf2") }
        #expect(relative == .missing(path: world.workingDirectory + "/fonts/Missing.sf2", source: .commandLine))

        let configured = #expect(throws: SoundFontLookupError.self) { try world.locate(configured: "/nonexistent/Ärger.sf2") }
        #expect(configured?.description == "soundfont in /home/zoë/.config/smfplay/config.toml: no such file: /nonexistent/Ärger.sf2")
        #expect(
            SoundFontLookupError.missing(path: "/x.sf2", source: .configuration(path: nil)).description
                == "the configuration's soundfont: no such file: /x.sf2")
    }

    @Test func aFolderMeansItsFirstSoundFont() throws {
        let world = try SoundFontWorld()
        let fonts = try world.folder.makeFolder("Fonts")
        let empty = #expect(throws: SoundFontLookupError.self) { try world.locate(requested: fonts.string) }
        #expect(empty?.description == "--soundfont: no .sf2 or .sf3 file in \(fonts)")
        let b = try world.add(fonts + "/b.sf2")
        #expect(try world.locate(requested: fonts.string + "/") == b)
        let device = #expect(throws: SoundFontLookupError.self) { try world.locate(requested: "/dev/null") }
        #expect(device?.description == "--soundfont: not a SoundFont file: /dev/null")
    }

    @Test func theCheckoutIsFoundAboveTheBuildFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("checkout/Package.swift", "// swift-tools-version:6.1")
        let soundFonts = try folder.makeFolder("checkout/SoundFonts")
        let executable = try folder.write("checkout/.build/x86_64-unknown-linux-gnu/debug/smfplay")
        #expect(SoundFontLocator.repositoryFolder(forExecutable: executable) == soundFonts)
        // Package.swift alone is some other package.
        try folder.write("other/Package.swift")
        #expect(SoundFontLocator.repositoryFolder(forExecutable: try folder.write("other/.build/debug/smfplay")) == nil)
        #expect(SoundFontLocator.repositoryFolder(forExecutable: "/usr/bin/smfplay") == nil)
    }

    @Test func theTestsRunFromThisCheckout() throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let executable = try #require(FilePath.currentExecutable)
        #expect(SoundFontLocator.repositoryFolder(forExecutable: executable) == FilePath(checkout.path + "/SoundFonts"))
    }

    @Test func theStandardLocatorSearchesTheCheckoutThenTheUserFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("checkout/Package.swift")
        let soundFonts = try folder.makeFolder("checkout/SoundFonts")
        let directories = XDGDirectories(environment: ["HOME": "/home/zoë"])
        let locator = SoundFontLocator.standard(directories: directories, executable: folder.filePath + "/checkout/.build/debug/smfplay")
        #expect(locator.searchFolders == [soundFonts, "/home/zoë/.local/share/smfplay/soundfonts"])
        #expect(locator.systemLocations == ["/usr/share/sounds/sf2/FluidR3_GM.sf2", "/usr/share/sounds/sf3", "/usr/share/sounds/sf2/TimGM6mb.sf2"])
        #expect(locator.home == "/home/zoë")
        #expect(SoundFontLocator.standard(directories: directories, executable: nil).searchFolders == ["/home/zoë/.local/share/smfplay/soundfonts"])
    }
}

/// `folder + "/Name.sf2"`: the tests write paths as text joined to a folder.
private func + (folder: FilePath, rest: String) -> FilePath {
    FilePath(folder.string + rest)
}
