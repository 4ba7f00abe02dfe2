import MemeSystem

/// The file operations the store and the draft change the disk with: the seam where tests inject
/// faults (`MemeSystem.FileOperations`).
public typealias StoreFileSystem = FileOperations

/// The real file system (`MemeSystem.SystemFileOperations`).
public typealias POSIXFileSystem = SystemFileOperations
