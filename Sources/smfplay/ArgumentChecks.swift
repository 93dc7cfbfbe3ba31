/// Checks of a command line that look at its values together (`--start` with `--seek`, `-o` with
/// the inputs), made by `main` once the whole command line has parsed. In ArgumentParser's
/// `validate()` they ran before it looked for arguments it does not know, so a misspelt option
/// was reported as whatever check it made fail (`render --frmat flac x.mid` complained that -o
/// was missing, not of `--frmat`). A `ValidationError` thrown here shows the command's usage.
protocol ArgumentChecks {
    /// The checks of this command or group of options alone.
    func checkOwnArguments() throws
    /// The groups of options whose checks come before this one's.
    var checkedGroups: [any ArgumentChecks] { get }
}

extension ArgumentChecks {
    func checkOwnArguments() throws {}
    var checkedGroups: [any ArgumentChecks] { [] }

    func checkArguments() throws {
        for group in checkedGroups { try group.checkArguments() }
        try checkOwnArguments()
    }
}
