import Configuration
import SystemPackage
import Testing

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
        #expect(
            directories
                == {
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
        #expect(directories.home.isAbsolute)
        #expect(directories.configHome == directories.home.appending(".config"))
    }

    @Test func theMusicFolderComesFromTheEnvironmentFirst() throws {
        let folder = try TemporaryFolder()
        try folder.write("user-dirs.dirs", #"XDG_MUSIC_DIR="$HOME/Musik""#)
        let directories = XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": folder.path, "XDG_MUSIC_DIR": "/srv/Música"])
        #expect(directories.music == "/srv/Música")
    }

    @Test func theMusicFolderComesFromUserDirsDirs() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "user-dirs.dirs",
            """
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Schreibtisch"
            XDG_MUSIC_DIR="$HOME/Old"
              XDG_MUSIC_DIR = "$HOME/Meine \\"Musik\\""
            XDG_MUSIC_DIR=relative/ignored
            XDG_MUSIC_DIRS="/wrong/variable"
            """)
        let directories = XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": folder.path, "XDG_MUSIC_DIR": "relative"])
        #expect(directories.music == #"/home/zoë/Meine "Musik""#)
        try folder.write("user-dirs.dirs", #"XDG_MUSIC_DIR="/srv/Música""#)
        #expect(XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": folder.path]).music == "/srv/Música")
    }

    @Test func aMusicFolderTurnedOffOrMissingIsMusicUnderHome() throws {
        let folder = try TemporaryFolder()
        // xdg-user-dirs turns a folder off by pointing it at the home folder.
        try folder.write("user-dirs.dirs", #"XDG_MUSIC_DIR="$HOME/""#)
        #expect(XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": folder.path]).music == "/home/zoë/Music")
        #expect(XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": folder.path + "/missing"]).music == "/home/zoë/Music")
        #expect(
            XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": folder.path, "XDG_MUSIC_DIR": "/home/zoë"]).music
                == "/home/zoë/Music")
    }

    @Test func smfplaysFoldersAreUnderTheBaseFolders() {
        let directories = XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_STATE_HOME": "/s"])
        #expect(directories.stateFolder == "/s/smfplay")
        #expect(directories.cacheFolder == "/home/zoë/.cache/smfplay")
    }

    @Test func theProcessEnvironmentIsRead() {
        let environment = XDGDirectories.processEnvironment()
        #expect(environment["PATH"] != nil)
        #expect(XDGDirectories.current() == XDGDirectories(environment: environment))
    }
}
