import Foundation
import LocationRouter
import TestSupport
import Testing

/// Outputs never damage what their path names: regular files are replaced atomically, everything else is written
/// in place. Every path here lives in the test's own temporary folder.
@Suite struct OutputFileTests {
    private func fileType(_ path: String, following: Bool = false) -> mode_t {
        var status = stat()
        let result = following ? stat(path, &status) : lstat(path, &status)
        return result == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func aRegularFileIsReplacedAndNoTemporaryIsLeft() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.json"
        try OutputFile.write("old, and longer than the new text\n", to: path)
        try OutputFile.write("new\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.json"])
    }

    @Test func chunksAreWrittenInOrderAndReplaceTheFileAtOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.ndjson"
        try OutputFile.write("old\n", to: path)
        let chunks = ["first line\n", "second ", "line\n", "", "third line\n"]
        try OutputFile.write(to: path) { emit in
            for chunk in chunks {
                // Nothing reaches the file's name until the last chunk is written.
                #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "old\n")
                Array(chunk.utf8).withUnsafeBytes(emit)
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == chunks.joined())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.ndjson"])
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        try "old\n".write(toFile: directory + "/real/report.json", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.json", withDestinationPath: "real/report.json")
        try FileManager.default.createSymbolicLink(atPath: directory + "/dangling.json", withDestinationPath: "real/new.json")
        try OutputFile.write("new\n", to: directory + "/link.json")
        try OutputFile.write("created\n", to: directory + "/dangling.json")
        #expect(fileType(directory + "/link.json") == S_IFLNK)
        #expect(fileType(directory + "/dangling.json") == S_IFLNK)
        #expect(try String(contentsOfFile: directory + "/real/report.json", encoding: .utf8) == "new\n")
        #expect(try String(contentsOfFile: directory + "/real/new.json", encoding: .utf8) == "created\n")
    }

    @Test func aLinkToACharacterDeviceLeavesTheDeviceAndTheLinkAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/sink"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        #expect(try OutputFile.kind(of: link) == .inPlace)
        try OutputFile.write("discarded\n", to: link)
        #expect(fileType(link) == S_IFLNK)
        #expect(fileType(link, following: true) == S_IFCHR)
    }

    @Test func aDeviceNodeOfItsOwnSurvivesWhenTheTestMayMakeOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let node = directory + "/null"
        // A node with the null device's numbers; only root may make one (others check a link to one, above).
        var null = stat()
        #expect(stat("/dev/null", &null) == 0)
        guard mknod(node, S_IFCHR | 0o666, null.st_rdev) == 0 else {
            #expect(errno == EPERM || errno == EACCES)
            return
        }
        try OutputFile.write("discarded\n", to: node)
        #expect(fileType(node) == S_IFCHR)
    }

    @Test func aFIFOIsWrittenInPlaceAndItsReaderGetsTheBytes() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Task.detached { () -> String in
            let handle = FileHandle(forReadingAtPath: fifo)
            defer { try? handle?.close() }
            return String(decoding: handle?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        }
        try OutputFile.write("through the pipe\n", to: fifo)
        #expect(await reader.value == "through the pipe\n")
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aMissingDirectoryOrALinkLoopIsAClearError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: OutputError.self) { try OutputFile.checkWritable(directory + "/missing/report.json") }
        try FileManager.default.createSymbolicLink(atPath: directory + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: directory + "/b", withDestinationPath: "a")
        do {
            try OutputFile.write("x", to: directory + "/a")
            Issue.record("a link loop was written")
        } catch {
            #expect(error.message.contains("symbolic links"))
        }
    }
}
