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
    ],
    targets: [
        // Floors: core (GeofenceKit) → input formats (GeofenceFormats) → pipeline (LocationRouter) → CLI.
        .target(name: "GeofenceKit"),
        .target(name: "GeofenceFormats", dependencies: ["GeofenceKit"]),
        .target(name: "LocationRouter", dependencies: ["GeofenceFormats", "GeofenceKit"]),
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
