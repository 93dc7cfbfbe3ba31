import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Library

/// The library browser on real folders: where it opens, how going back and the filter move the
/// selection, and which files Enter plays.
struct LibraryBrowserTests {
    /// A library laid out as people keep one: composers, then categories, then pieces, with
    /// things before and after each folder walked through, so that a selection left at the
    /// first line would show.
    static func makeLibrary() throws -> TemporaryFolder {
        let library = try TemporaryFolder()
        for file in [
            "Bach/Preludes/Prelude in C.mid",
            "Chopin/Ballades/Ballade No.1 Op.23.mid",
            "Chopin/Nocturnes/Nocturne Op.9 No.1.mid",
            "Chopin/Nocturnes/Nocturne Op.9 No.2.mid",
            "Chopin/Nocturnes/Nocturne Op.27 No.1.mid",
            "Chopin/Nocturnes/Nocturne Op.27 No.2.mid",
            "Chopin/Nocturnes/Posthumous/Nocturne in C-sharp minor.mid",
            "Chopin/Polonaises/Polonaise Op.53.mid",
            "Chopin/Fantaisie-Impromptu Op.66.mid",
            "Satie/Gymnop\u{E9}die No.1.mid",
            "Satie/Gymnop\u{E9}die No.2.mid",
        ] {
            try library.create(file)
        }
        try library.create("Chopin/Nocturnes/cover.jpg")
        return library
    }

    func names(_ browser: LibraryBrowser) -> [String] {
        browser.visibleEntries.map { $0.kind == .folder ? $0.name + "/" : $0.name }
    }

    // MARK: Where it opens

    @Test("opens at the last played file's folder with the file selected, given relative to the library or absolute")
    func opensAtTheLastPlayedFile() throws {
        let library = try Self.makeLibrary()
        for lastPlayed in ["Chopin/Nocturnes/Nocturne Op.27 No.1.mid", library.filePath("Chopin/Nocturnes/Nocturne Op.27 No.1.mid")] {
            let browser = LibraryBrowser(root: library.filePath, lastPlayed: lastPlayed)
            #expect(browser.trail == ["Chopin", "Nocturnes"], "\(lastPlayed)")
            #expect(browser.folderPath == library.filePath("Chopin/Nocturnes"))
            #expect(
                names(browser) == [
                    "Posthumous/", "Nocturne Op.9 No.1.mid", "Nocturne Op.9 No.2.mid", "Nocturne Op.27 No.1.mid", "Nocturne Op.27 No.2.mid",
                ])
            #expect(browser.selectedEntry?.path == library.filePath("Chopin/Nocturnes/Nocturne Op.27 No.1.mid"), "\(lastPlayed)")
            #expect(browser.problem == nil)
        }
        // A library given with a trailing slash is the same library.
        let slashed = LibraryBrowser(root: FilePath(library.path + "/"), lastPlayed: library.filePath("Satie/Gymnopédie No.2.mid"))
        #expect(slashed.trail == ["Satie"])
        #expect(slashed.selectedEntry?.name == "Gymnopédie No.2.mid")
    }

    @Test("a last played file that is gone: the nearest folder above it that is still there")
    func aGoneFileOpensTheNearestFolder() throws {
        let library = try Self.makeLibrary()
        let gone = LibraryBrowser(root: library.filePath, lastPlayed: "Chopin/Nocturnes/Nocturne Op.72 No.1.mid")
        #expect(gone.trail == ["Chopin", "Nocturnes"])
        #expect(gone.selectedEntry != nil)
        #expect(gone.problem == nil)

        let goneFolders = LibraryBrowser(root: library.filePath, lastPlayed: library.filePath("Chopin/Mazurkas/Op.17/Mazurka No.4.mid"))
        #expect(goneFolders.trail == ["Chopin"])
        #expect(goneFolders.folderPath == library.filePath("Chopin"))
        #expect(goneFolders.selectedEntry != nil)
        #expect(goneFolders.problem == nil)

        let goneComposer = LibraryBrowser(root: library.filePath, lastPlayed: "Schubert/Impromptus/Impromptu Op.90 No.3.mid")
        #expect(goneComposer.trail.isEmpty)
        #expect(goneComposer.folderPath == library.filePath)
        #expect(names(goneComposer) == ["Bach/", "Chopin/", "Satie/"])
    }

    @Test("no last played file, or one outside the library: the library's top, first line selected")
    func noStateOpensTheRoot() throws {
        let library = try Self.makeLibrary()
        let outside = try TemporaryFolder()
        let elsewhere = try outside.create("Elsewhere/song.mid")
        for lastPlayed in [nil, FilePath(elsewhere)] {
            let browser = LibraryBrowser(root: library.filePath, lastPlayed: lastPlayed)
            #expect(browser.trail.isEmpty, "\(lastPlayed?.string ?? "no state")")
            #expect(browser.folderPath == library.filePath)
            #expect(names(browser) == ["Bach/", "Chopin/", "Satie/"])
            #expect(browser.selection == 0)
            #expect(browser.selectedEntry?.name == "Bach")
        }
    }

    // MARK: Moving

    @Test("back climbs one folder at a time, selecting the folder it came out of, and stops at the top")
    func backClimbsToTheRoot() throws {
        let library = try Self.makeLibrary()
        var browser = LibraryBrowser(root: library.filePath, lastPlayed: "Chopin/Nocturnes/Posthumous/Nocturne in C-sharp minor.mid")
        #expect(browser.trail == ["Chopin", "Nocturnes", "Posthumous"])

        let leftPosthumous = browser.goBack()
        #expect(leftPosthumous)
        #expect(browser.trail == ["Chopin", "Nocturnes"])
        #expect(browser.selectedEntry?.name == "Posthumous")

        let leftNocturnes = browser.goBack()
        #expect(leftNocturnes)
        #expect(browser.trail == ["Chopin"])
        #expect(names(browser) == ["Ballades/", "Nocturnes/", "Polonaises/", "Fantaisie-Impromptu Op.66.mid"])
        #expect(browser.selectedEntry?.name == "Nocturnes")

        let leftChopin = browser.goBack()
        #expect(leftChopin)
        #expect(browser.trail.isEmpty)
        #expect(browser.selectedEntry?.name == "Chopin")

        // At the top, back does nothing, and the selection stays.
        let leftTheTop = browser.goBack()
        #expect(!leftTheTop)
        #expect(browser.trail.isEmpty)
        #expect(browser.selectedEntry?.name == "Chopin")
    }

    @Test("opening a folder shows it from its first line; a file does not open; back leaves a filter behind")
    func openingAndLeavingFolders() throws {
        let library = try Self.makeLibrary()
        var browser = LibraryBrowser(root: library.filePath)
        browser.moveSelection(by: 1)
        let openedChopin = browser.openSelectedFolder()
        #expect(openedChopin)
        #expect(browser.trail == ["Chopin"])
        #expect(browser.selectedEntry?.name == "Ballades")
        browser.moveSelectionToEnd()
        #expect(browser.selectedEntry?.name == "Fantaisie-Impromptu Op.66.mid")
        let openedAFile = browser.openSelectedFolder()
        #expect(!openedAFile)
        #expect(browser.trail == ["Chopin"])
        // Moving past either end stops there.
        browser.moveSelection(by: 10)
        #expect(browser.selectedEntry?.name == "Fantaisie-Impromptu Op.66.mid")
        browser.moveSelection(by: -10)
        #expect(browser.selectedEntry?.name == "Ballades")

        browser.setFilter("noct")
        let openedNocturnes = browser.openSelectedFolder()
        #expect(openedNocturnes)
        #expect(browser.filter.isEmpty)
        #expect(browser.trail == ["Chopin", "Nocturnes"])
        browser.setFilter("Op.27")
        browser.goBack()
        #expect(browser.filter.isEmpty)
        #expect(names(browser).count == 4)
        #expect(browser.selectedEntry?.name == "Nocturnes")

        browser.goToRoot()
        #expect(browser.trail.isEmpty)
        #expect(browser.selection == 0)
    }

    // MARK: Filter

    @Test("the filter keeps the selected entry selected while it shows, and moves to the first match when it does not")
    func filterKeepsOrMovesTheSelection() throws {
        let library = try Self.makeLibrary()
        var browser = LibraryBrowser(root: library.filePath, lastPlayed: "Chopin/Nocturnes/Nocturne Op.27 No.1.mid")
        #expect(browser.selection == 3)

        browser.setFilter("27")
        #expect(names(browser) == ["Nocturne Op.27 No.1.mid", "Nocturne Op.27 No.2.mid"])
        #expect(browser.selectedEntry?.name == "Nocturne Op.27 No.1.mid")

        // Typed without capitals.
        browser.setFilter("no.2")
        #expect(names(browser) == ["Nocturne Op.9 No.2.mid", "Nocturne Op.27 No.2.mid"])
        #expect(browser.selection == 0)
        #expect(browser.selectedEntry?.name == "Nocturne Op.9 No.2.mid")

        browser.setFilter("Op.72")
        #expect(names(browser).isEmpty)
        #expect(browser.selectedEntry == nil)
        #expect(browser.filesFromSelection.isEmpty)

        browser.setFilter("No.2")
        browser.moveSelection(by: 1)
        #expect(browser.selectedEntry?.name == "Nocturne Op.27 No.2.mid")
        // The filter cleared: everything shows again, the same entry selected.
        browser.setFilter("")
        #expect(names(browser).count == 5)
        #expect(browser.selectedEntry?.name == "Nocturne Op.27 No.2.mid")
        #expect(browser.selection == 4)
    }

    // MARK: Unicode

    @Test("the last file's name in NFD (as macOS writes it) finds the same name in NFC on disk")
    func decomposedNameFindsComposedFile() throws {
        let library = try Self.makeLibrary()
        let decomposed = "Satie/Gymnope\u{301}die No.2.mid"
        #expect(Array(decomposed.utf8) != Array("Satie/Gymnop\u{E9}die No.2.mid".utf8))
        for lastPlayed in [decomposed, library.path + "/" + decomposed] {
            let browser = LibraryBrowser(root: library.filePath, lastPlayed: FilePath(lastPlayed))
            #expect(browser.trail == ["Satie"])
            #expect(browser.selection == 1, "\(lastPlayed)")
            // The entry is the file on disk, with its own bytes.
            #expect(browser.selectedEntry.map { $0.path.bytes } == Array((library.path + "/Satie/Gymnop\u{E9}die No.2.mid").utf8))
        }
    }

    // MARK: What Enter plays

    @Test("Enter on a file plays it and the files after it in the folder, in the listing's order, without subfolders or other files")
    func filesFromSelectionIsTheAlbumOrder() throws {
        let library = try Self.makeLibrary()
        let nocturnes = library.filePath("Chopin/Nocturnes")
        var browser = LibraryBrowser(root: library.filePath, lastPlayed: "Chopin/Nocturnes/Nocturne Op.9 No.2.mid")
        #expect(
            browser.filesFromSelection
                == ["Nocturne Op.9 No.2.mid", "Nocturne Op.27 No.1.mid", "Nocturne Op.27 No.2.mid"].map { nocturnes.appending($0) })
        browser.moveSelectionToStart()
        #expect(browser.selectedEntry?.name == "Posthumous")
        #expect(browser.filesFromSelection.isEmpty)
        browser.moveSelection(by: 1)
        #expect(
            browser.filesFromSelection
                == ["Nocturne Op.9 No.1.mid", "Nocturne Op.9 No.2.mid", "Nocturne Op.27 No.1.mid", "Nocturne Op.27 No.2.mid"].map {
                    nocturnes.appending($0)
                })
        browser.moveSelectionToEnd()
        #expect(browser.filesFromSelection == [nocturnes.appending("Nocturne Op.27 No.2.mid")])
    }

    // MARK: Folders that change under it

    @Test("a folder gone (a disk unmounted) shows its loss at the next look, and its songs again once it is back, the selection kept")
    func folderGoneAndBack() throws {
        let library = try Self.makeLibrary()
        var browser = LibraryBrowser(root: library.filePath, lastPlayed: "Satie/Gymnop\u{E9}die No.2.mid")
        #expect(names(browser) == ["Gymnop\u{E9}die No.1.mid", "Gymnop\u{E9}die No.2.mid"] && browser.selection == 1)
        browser.refreshIfChanged()
        #expect(browser.problem == nil && browser.selection == 1, "nothing changed: nothing listed again")
        try #require(rename(library.file("Satie"), library.file("Away")) == 0)
        browser.refreshIfChanged()
        #expect(browser.entries.isEmpty && browser.problem != nil, "\(String(describing: browser.problem))")
        try #require(rename(library.file("Away"), library.file("Satie")) == 0)
        browser.refreshIfChanged()
        #expect(browser.problem == nil && names(browser).count == 2 && browser.selection == 1, "\(names(browser)), \(browser.selection)")
        // A song added meanwhile is listed at the next look.
        try library.create("Satie/Gymnop\u{E9}die No.3.mid")
        browser.refreshIfChanged()
        #expect(names(browser).count == 3, "\(names(browser))")
    }
}
