import Foundation
import LocationRouter
import TestSupport
import Testing
@testable import location_router

/// deploy/kubernetes: the manifests parse, and they wire what the README promises.
@Suite struct KubernetesManifestTests {
    static let folder = projectRoot + "/deploy/kubernetes"

    static func manifest(_ name: String) throws -> YAMLNode {
        try MiniYAML.parse(String(contentsOfFile: folder + "/" + name, encoding: .utf8))
    }

    @Test func theYAMLReaderFollowsIndentationAndRefusesWhatItCannotRead() throws {
        let node = try MiniYAML.parse("""
            # a comment
            a:
              b: "quoted"
              list:
                - one
                - name: two
                  value: 2
              block: |
                {"x": 1,
                  "y": 2}
            c: plain text
            """)
        #expect(node.at("a.b")?.string == "quoted")
        #expect(node.at("a.list.0")?.string == "one")
        #expect(node.at("a.list.1.name")?.string == "two")
        #expect(node.at("a.list.1.value")?.string == "2")
        #expect(node.at("a.block")?.string == "{\"x\": 1,\n  \"y\": 2}\n")
        #expect(node.at("c")?.string == "plain text")
        #expect(throws: YAMLError.self) { try MiniYAML.parse("a: 1\n  b: 2\n") }
        #expect(throws: YAMLError.self) { try MiniYAML.parse("a: 1\na: 2\n") }
        #expect(throws: YAMLError.self) { try MiniYAML.parse("a:\n  just words\n") }
    }

    @Test func theIndexedJobPassesItsCompletionIndexAsThePartition() throws {
        let job = try Self.manifest("job.yaml")
        #expect(job["apiVersion"]?.string == "batch/v1")
        #expect(job["kind"]?.string == "Job")
        #expect(job.at("spec.completionMode")?.string == "Indexed")
        let completions = try #require(job.at("spec.completions")?.string.flatMap { Int($0) })
        #expect(job.at("spec.parallelism")?.string == String(completions))
        let pod = try #require(job.at("spec.template.spec"))
        #expect(pod["restartPolicy"]?.string == "Never")
        let container = try #require(pod.at("containers.0"))
        // JOB_COMPLETION_INDEX comes from the pod's completion-index annotation and reaches --partition I/N.
        let env = container["env"]?.items ?? []
        let index = env.first { $0["name"]?.string == "JOB_COMPLETION_INDEX" }
        #expect(index?.at("valueFrom.fieldRef.fieldPath")?.string
            == "metadata.annotations['batch.kubernetes.io/job-completion-index']")
        let args = (container["args"]?.items ?? []).compactMap(\.string)
        #expect(args.first == "run")
        let partition = try #require(args.firstIndex(of: "--partition"))
        #expect(args[partition + 1] == "$(JOB_COMPLETION_INDEX)/\(completions)")
        let config = try #require(args.firstIndex(of: "--config"))
        let report = try #require(args.firstIndex(of: "--report"))
        #expect(args[report + 1].contains("$(JOB_COMPLETION_INDEX)"))
        // The arguments are ones `run` accepts once the index is substituted (with the ConfigMap's config).
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let json = try #require(try Self.manifest("configmap.yaml")["data"]?["config.json"]?.string)
        try Data(json.utf8).write(to: URL(fileURLWithPath: directory + "/config.json"))
        var substituted = args.dropFirst().map { $0.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: "3") }
        substituted[config] = directory + "/config.json"
        let command = try RunCommand(arguments: Array(substituted), console: CapturedOutput().console, workingDirectory: "/")
        #expect(command.scenario.partition == Partition(index: 3, count: completions))
        // The config and results volumes are mounted where the arguments point.
        let mounts = (container["volumeMounts"]?.items ?? []).compactMap { mount in
            mount["name"]?.string.map { ($0, mount["mountPath"]?.string ?? "") }
        }
        let paths = Dictionary(uniqueKeysWithValues: mounts)
        #expect(args[config + 1].hasPrefix(try #require(paths["config"]) + "/"))
        #expect(args[report + 1].hasPrefix(try #require(paths["results"]) + "/"))
        let volumes = pod["volumes"]?.items ?? []
        let configMap = volumes.first { $0["name"]?.string == "config" }?.at("configMap.name")?.string
        #expect(configMap == (try Self.manifest("configmap.yaml")).at("metadata.name")?.string)
        let claim = volumes.first { $0["name"]?.string == "results" }?.at("persistentVolumeClaim.claimName")?.string
        #expect(claim == (try Self.manifest("results-pvc.yaml")).at("metadata.name")?.string)
    }

    @Test func theConfigMapHoldsAConfigThatCheckAccepts() async throws {
        let map = try Self.manifest("configmap.yaml")
        #expect(map["kind"]?.string == "ConfigMap")
        let json = try #require(map["data"]?["config.json"]?.string)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let check = await runCommand(["check", path])
        #expect(check.status == .success, "\(check.out)")
        // The scenario does not name outputs: the Job's arguments do.
        #expect(!json.contains("\"report\"") && !json.contains("\"events\""))
    }

    @Test func theMergeStepReadsEveryPartitionsReport() throws {
        let job = try Self.manifest("job.yaml")
        let completions = try #require(job.at("spec.completions")?.string.flatMap { Int($0) })
        let merge = try Self.manifest("merge-job.yaml")
        #expect(merge["kind"]?.string == "Job")
        let args = (merge.at("spec.template.spec.containers.0.args")?.items ?? []).compactMap(\.string)
        #expect(args.first == "merge")
        let reports = args.filter { $0.hasPrefix("/results/report-") }
        #expect(reports == (0..<completions).map { "/results/report-\($0).json" })
        // The arguments are ones `merge` accepts.
        _ = try MergeCommand(arguments: Array(args.dropFirst()), console: CapturedOutput().console)
        #expect(merge.at("spec.template.spec.volumes.0.persistentVolumeClaim.claimName")?.string
            == "location-router-results")
    }

    @Test func theDockerfileBuildsWithTheOfficialSwiftImageInTwoStages() throws {
        let text = try String(contentsOfFile: Self.folder + "/Dockerfile", encoding: .utf8)
        let stages = text.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        #expect(stages.count == 2)
        #expect(stages.first?.hasPrefix("FROM swift:") == true && stages.first?.hasSuffix(" AS build") == true)
        #expect(text.contains("COPY --from=build"))
        #expect(text.contains("ENTRYPOINT [\"/usr/local/bin/location-router\"]"))
        // The https library goes beside the executable, and the Swift runtime both link where they look for it.
        #expect(text.contains("libLocationRouterHTTPS.so /usr/local/bin/"))
        #expect(text.contains("COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/"))
    }
}
