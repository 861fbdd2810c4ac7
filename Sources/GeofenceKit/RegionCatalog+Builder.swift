extension RegionCatalog {
    /// A catalog built while its regions arrive one by one (from a decoder): each is filed as it is appended, while
    /// it is still in the cache, rather than in a pass over all of them once decoded (200,000 regions are 37 MB,
    /// far larger than the caches, and that pass ran alone before the first sample).
    public struct Builder {
        private var regions: [Region] = []
        private var filing: Filing

        /// A builder with room for `expected` regions, reserved at once (in huge pages when large): an array grown
        /// as it filled would be copied, its pages touched anew, every time.
        public init(expected: Int) {
            regions.reserveCapacity(expected)
            HugePages.advise(capacityOf: &regions)
            filing = Filing(expected: expected)
        }

        /// The regions appended so far.
        public var count: Int { regions.count }

        /// Appends the next region in file order.
        public mutating func append(_ region: consuming Region) {
            filing.file(region)
            regions.append(consume region)
        }

        /// The catalog of the regions appended.
        public consuming func build() -> RegionCatalog {
            RegionCatalog(regions: regions, filing: filing)
        }
    }
}
