import Files
import Foundation
import SystemPackage

/// Where the user is in the library and what they see there: the folder (as the path walked down
/// from the root), its listing, the filter typed and the selection. A value: the browser's view
/// draws it, keys change it.
///
/// Going back climbs one folder and selects the folder it came out of, exactly as if the user had
/// walked down from the root, and stops at the root.
public struct LibraryBrowser {
    public let root: FilePath
    /// The folders walked down from the root to the one shown.
    public private(set) var trail: [FilePath.Component] = []
    /// The folder's entries, filter or not.
    public private(set) var entries: [FolderEntry] = []
    /// Why the folder shown could not be listed.
    public private(set) var problem: String?
    /// Text typed after `/`: only names containing it are shown.
    public private(set) var filter = ""
    /// The words of a search of the whole library whose results are shown in place of the
    /// folder (named by their paths under the root); nil when the folder is shown.
    public private(set) var search: String?
    /// The selected line of `visibleEntries`.
    public private(set) var selection = 0
    /// The shown folder's stamp when it was listed (nil: it was not there).
    private var listedStamp: FileStamp?
    /// The name selected when the folder could last be listed, selected again once it is back.
    private var selectionBeforeLoss: FilePath.Component?

    /// Opens at the folder of `lastPlayed` (a path under `root`, relative to it, or absolute) with
    /// it selected; if the file is gone, at its nearest folder still there; without one, at the root.
    public init(root: FilePath, lastPlayed: FilePath? = nil) {
        self.root = root
        var components: [FilePath.Component] = []
        if let lastPlayed, case .inLibrary(let relative) = LibraryPath(lastPlayed, libraryRoot: root, workingDirectory: root) {
            components = Array(relative.components)
        }
        let name = components.popLast()
        while !components.isEmpty {
            if (try? FolderListing(folder: root.appending(components))) != nil { break }
            components.removeLast()
        }
        trail = components
        reload(selecting: name)
    }

    /// The shown folder's path.
    public var folderPath: FilePath { root.appending(trail) }

    public var visibleEntries: [FolderEntry] {
        filter.isEmpty ? entries : entries.filter { $0.name.localizedStandardContains(filter) }
    }

    public var selectedEntry: FolderEntry? {
        let visible = visibleEntries
        return visible.indices.contains(selection) ? visible[selection] : nil
    }

    /// The selected file and the files after it in the folder, as an album plays.
    public var filesFromSelection: [FilePath] {
        guard let selected = selectedEntry, selected.kind == .midiFile else { return [] }
        let files = visibleEntries.filter { $0.kind == .midiFile }
        guard let start = files.firstIndex(of: selected) else { return [] }
        return files[start...].map(\.path)
    }

    public mutating func moveSelection(by offset: Int) {
        select(selection + offset)
    }

    public mutating func moveSelectionToStart() { select(0) }

    public mutating func moveSelectionToEnd() { select(visibleEntries.count - 1) }

    /// Opens the selected folder; returns false when the selection is not a folder.
    @discardableResult
    public mutating func openSelectedFolder() -> Bool {
        guard let selected = selectedEntry, selected.kind == .folder else { return false }
        search = nil
        guard let name = selected.path.lastComponent else { return false }
        trail.append(name)
        filter = ""
        reload(selecting: nil)
        return true
    }

    /// Shows the files a search of the whole library found, as a list that plays like a folder.
    public mutating func showSearchResults(_ paths: [FilePath], for words: String) {
        search = words
        filter = ""
        problem = nil
        entries = paths.map { FolderEntry(foundFile: $0, root: root) }
        selection = 0
    }

    /// The same search's results again (more were found since), the selected file kept selected.
    public mutating func refreshSearchResults(_ paths: [FilePath]) {
        guard let words = search else { return }
        let selected = selectedEntry?.path
        showSearchResults(paths, for: words)
        if let selected, let index = entries.firstIndex(where: { $0.path == selected }) { selection = index }
    }

    /// Back from search results to the folder.
    public mutating func leaveSearch() {
        guard search != nil else { return }
        search = nil
        reload(selecting: nil)
    }

    /// Climbs one folder, selecting the one it came out of (from search results, back to the
    /// folder); false at the root.
    @discardableResult
    public mutating func goBack() -> Bool {
        if search != nil {
            leaveSearch()
            return true
        }
        guard let left = trail.popLast() else { return false }
        filter = ""
        reload(selecting: left)
        return true
    }

    public mutating func goToRoot() {
        search = nil
        trail = []
        filter = ""
        reload(selecting: nil)
    }

    /// Sets the filter, keeping the selected entry selected when it still shows.
    public mutating func setFilter(_ text: String) {
        let selected = selectedEntry
        filter = text
        selection = selected.flatMap(visibleEntries.firstIndex(of:)) ?? 0
    }

    /// Lists the folder again (files may have come or gone), keeping the selection; search
    /// results stay as they are.
    public mutating func refresh() {
        guard search == nil else { return }
        reload(selecting: selectedEntry?.path.lastComponent ?? selectionBeforeLoss)
    }

    /// Lists the folder again when it changed since it was listed (a file came or went: its
    /// modification time moved), or went away, or came back (a disk unmounted and mounted again):
    /// a `stat`, cheap enough to ask every second.
    public mutating func refreshIfChanged() {
        guard search == nil, FileStamp(ofFileAt: folderPath) != listedStamp else { return }
        refresh()
    }

    /// The name's bytes first; then its text, which Swift compares by canonical equivalence, so
    /// that a name saved in NFD (macOS) finds its NFC twin.
    private mutating func reload(selecting name: FilePath.Component?) {
        listedStamp = FileStamp(ofFileAt: folderPath)
        do {
            entries = try FolderListing(folder: folderPath).entries
            problem = nil
            selectionBeforeLoss = nil
        } catch {
            if !entries.isEmpty { selectionBeforeLoss = name }
            entries = []
            problem = error.reason.description
        }
        let visible = visibleEntries
        selection =
            name.flatMap { name in
                visible.firstIndex { $0.path.lastComponent == name } ?? visible.firstIndex { $0.name == name.text }
            } ?? 0
    }

    private mutating func select(_ index: Int) {
        selection = max(0, min(index, visibleEntries.count - 1))
    }
}
