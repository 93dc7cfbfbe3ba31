/// The command line with every empty `--name=` written out as `--name ""`. ArgumentParser takes
/// nothing after the `=` for no value yet and reads the next argument as the value:
/// `--config= song.mid` loaded the song as settings and lost it as an input, `--text-encoding= x.mid`
/// read the file's name as the encoding. Written out, the empty value reaches the option's
/// parsing or `checkArguments()`, which refuse it with the command's usage. Arguments after `--` are
/// inputs, whatever their names.
enum EmptyOptionValues {
    static func writtenOut(in arguments: [String]) -> [String] {
        var result: [String] = []
        var readsOptions = true
        for argument in arguments {
            if argument == "--" { readsOptions = false }
            if readsOptions, argument.hasPrefix("--"), argument.count > 3, argument.hasSuffix("="), argument.dropLast().dropFirst(2).allSatisfy({ $0 != "=" }) {
                result += [String(argument.dropLast()), ""]
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
