/// A folder's part of its files' texts in the full-text index (see ``SearchRow``): the folders
/// between the library folder and the file, folded. It is the same for every file in the folder,
/// and the index reads a folder's files one after another: each worker folds it once for a run of
/// them, not once a file (Foundation's normalisation of a name with an accent costs more than
/// the rest of the row).
struct SearchFolder {
    /// The folders as the file system names them ("Chopin/Études").
    let relative: String
    /// Folded, with " / " between them ("chopin / etudes").
    let folded: String
    /// `folded`'s letter pairs (see ``SearchText/letterPairs(of:)``).
    let pairs: String

    init(relative: String) {
        self.relative = relative
        folded = SearchText.fold(relative.split(separator: "/").joined(separator: " / "))
        pairs = SearchText.letterPairs(of: folded)
    }
}
