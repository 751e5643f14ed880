package dev.schemarag.core.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-process model from the ONNX file and tokenizer its langchain4j jar ships, in a session of
 * ours: langchain4j's own classes take ONNX Runtime's default options, whose worker threads
 * spin-wait for more work after each call. On a small machine that spinning takes the cores the
 * database and the lexical search need right after a question is embedded, and those of the other
 * threads embedding a batch ({@code embedding.onnx.spinning}). One session per model and setting
 * in a process, shared as langchain4j shares its own.
 */
final class OnnxSessionModel extends AbstractInProcessEmbeddingModel {

  /** Where a model jar keeps a model: its ONNX file, its tokenizer, and how token vectors become one. */
  record Files(String onnx, String tokenizer, PoolingMode pooling, int dimension) {}

  private record Key(Files files, boolean spinning) {}

  private static final Map<Key, OnnxBertBiEncoder> SESSIONS = new ConcurrentHashMap<>();

  private final OnnxBertBiEncoder encoder;
  private final int dimension;

  OnnxSessionModel(Files files, boolean spinning) {
    super(null);
    this.encoder = SESSIONS.computeIfAbsent(new Key(files, spinning), OnnxSessionModel::load);
    this.dimension = files.dimension();
  }

  /** The session options: ONNX Runtime's defaults, with its spinning as configured. */
  static OrtSession.SessionOptions options(boolean spinning) throws OrtException {
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    String spin = spinning ? "1" : "0";
    options.addConfigEntry("session.intra_op.allow_spinning", spin);
    options.addConfigEntry("session.inter_op.allow_spinning", spin);
    return options;
  }

  private static OnnxBertBiEncoder load(Key key) {
    Files f = key.files();
    ClassLoader loader = OnnxSessionModel.class.getClassLoader();
    try (InputStream model = loader.getResourceAsStream(f.onnx()); InputStream tokenizer = loader.getResourceAsStream(f.tokenizer())) {
      if (model == null || tokenizer == null) {
        throw new IllegalStateException("no " + f.onnx() + " or " + f.tokenizer() + " on the classpath: is its langchain4j model jar missing?");
      }
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      try (OrtSession.SessionOptions options = options(key.spinning())) {
        return new OnnxBertBiEncoder(env, env.createSession(model.readAllBytes(), options), tokenizer, f.pooling());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the model " + f.onnx(), e);
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime cannot load " + f.onnx() + ": " + e.getMessage(), e);
    }
  }

  @Override
  protected OnnxBertBiEncoder model() {
    return encoder;
  }

  @Override
  protected Integer knownDimension() {
    return dimension;
  }
}
