// swift-tools-version: 6.0
import PackageDescription

// No package dependencies: only the Swift toolchain (Foundation, Dispatch, Synchronization, Testing).
let package = Package(
    name: "LocationRouter",
    products: [
        // GeofenceKit keeps offering the input formats beside the core, as it did before they got a target.
        .library(name: "GeofenceKit", targets: ["GeofenceKit", "GeofenceFormats"]),
        .library(name: "GeofenceFormats", targets: ["GeofenceFormats"]),
        .library(name: "LocationRouter", targets: ["LocationRouter"]),
        .executable(name: "location-router", targets: ["location-router"]),
        .executable(name: "location-router-bench", targets: ["LocationRouterBenchmarks"]),
        // https requests (FoundationNetworking), loaded by the pipeline at run time only when a URL needs them,
        // so that every other run starts without loading libcurl and the ~30 libraries it brings.
        .library(name: "LocationRouterHTTPS", type: .dynamic, targets: ["LocationRouterHTTPS"]),
    ],
    targets: [
        // Floors: core (GeofenceKit) → input formats (GeofenceFormats) → pipeline (LocationRouter) → CLI.
        .target(name: "GeofenceKit"),
        .target(name: "GeofenceFormats", dependencies: ["GeofenceKit"]),
        .target(name: "LocationRouter", dependencies: ["GeofenceFormats", "GeofenceKit"]),
        // No target depends on it: the pipeline opens the library it is built into (see HTTPSLibrary).
        .target(name: "LocationRouterHTTPS"),
        .executableTarget(name: "location-router", dependencies: ["LocationRouter", "GeofenceFormats", "GeofenceKit"]),
        .executableTarget(
            name: "LocationRouterBenchmarks",
            dependencies: ["LocationRouter", "GeofenceFormats", "GeofenceKit"],
            path: "Benchmarks/LocationRouterBenchmarks"
        ),
        // What every test target shares: long synchronous work run off the cooperative pool, temporary folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "GeofenceKitTests", dependencies: ["GeofenceKit", "GeofenceFormats", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "GeofenceFormatsTests", dependencies: ["GeofenceFormats", "GeofenceKit", "TestSupport"]),
        .testTarget(
            name: "LocationRouterTests", dependencies: ["LocationRouter", "GeofenceFormats", "GeofenceKit", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "CLITests",
            dependencies: ["location-router", "LocationRouter", "GeofenceFormats", "GeofenceKit", "TestSupport"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
