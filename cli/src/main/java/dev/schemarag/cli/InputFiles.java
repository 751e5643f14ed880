package dev.schemarag.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Checks of the files a command reads, before it starts work that takes minutes. */
final class InputFiles {

  private InputFiles() {}

  /**
   * The file, when it is a regular file; otherwise an error that names what it is for.
   *
   * @param what what the file holds, as the error names it ("schema file", "questions file")
   */
  static Path existing(String what, Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(what + " " + file + (Files.isDirectory(file) ? " is a folder, not a file" : " does not exist"));
    }
    return file;
  }
}
