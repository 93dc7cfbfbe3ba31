import Testing
import Configuration

struct XDGDirectoriesTests {
    @Test func defaultsAreUnderHome() {
        let directories = XDGDirectories(environment: ["HOME": "/home/zoë"])
        #expect(directories.home == "/home/zoë")
        #expect(directories.configHome == "/home/zoë/.config")
        #expect(directories.dataHome == "/home/zoë/.local/share")
        #expect(directories.stateHome == "/home/zoë/.local/state")
        #expect(directories.cacheHome == "/home/zoë/.cache")
    }

    @Test func absoluteVariablesWin() {
        let directories = XDGDirectories(environment: [
            "HOME": "/home/zoë",
            "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/k",
        ])
        #expect(directories == {
            var expected = XDGDirectories(environment: ["HOME": "/home/zoë"])
            expected.configHome = "/c"
            expected.dataHome = "/d"
            expected.stateHome = "/s"
            expected.cacheHome = "/k"
            return expected
        }())
    }

    @Test func emptyOrRelativeVariablesAreIgnored() {
        let directories = XDGDirectories(environment: [
            "HOME": "/home/zoë", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "relative/data", "XDG_STATE_HOME": "~/state",
        ])
        #expect(directories.configHome == "/home/zoë/.config")
        #expect(directories.dataHome == "/home/zoë/.local/share")
        #expect(directories.stateHome == "/home/zoë/.local/state")
    }

    @Test func withoutHomeTheUsersHomeFolderIsUsed() {
        let directories = XDGDirectories(environment: ["HOME": "relative"])
        #expect(directories.home.hasPrefix("/"))
        #expect(directories.configHome == (directories.home == "/" ? "/.config" : directories.home + "/.config"))
    }

    @Test func theProcessEnvironmentIsRead() {
        let environment = XDGDirectories.processEnvironment()
        #expect(environment["PATH"] != nil)
        #expect(XDGDirectories.current() == XDGDirectories(environment: environment))
    }
}
