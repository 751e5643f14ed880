package dev.schemarag.core.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import org.junit.jupiter.api.Test;

class OnnxSessionModelTest {

  @Test
  void workerThreadsSleepAfterACallUnlessSpinningIsConfigured() throws Exception {
    try (OrtSession.SessionOptions quiet = OnnxSessionModel.options(false); OrtSession.SessionOptions spinning = OnnxSessionModel.options(true)) {
      assertThat(quiet.getConfigEntries()).containsEntry("session.intra_op.allow_spinning", "0")
          .containsEntry("session.inter_op.allow_spinning", "0");
      assertThat(spinning.getConfigEntries()).containsEntry("session.intra_op.allow_spinning", "1");
    }
  }

  @Test
  void embedsAsLangchain4jsOwnModelClassesDo() {
    // mean pooling (MiniLM) and CLS pooling (BGE): the files and pooling named in IN_PROCESS are the jars' own
    assertSameVectors(model("all-minilm-l6-v2"), new AllMiniLmL6V2EmbeddingModel());
    assertSameVectors(model("bge-small-en-v15-q"), new BgeSmallEnV15QuantizedEmbeddingModel());
  }

  @Test
  void oneSessionPerModelAndSettingInAProcess() {
    Langchain4jEmbedder.InProcessModel m = Langchain4jEmbedder.IN_PROCESS.get(0);
    assertThat(new OnnxSessionModel(m.files(), false).model()).isSameAs(new OnnxSessionModel(m.files(), false).model())
        .isNotSameAs(new OnnxSessionModel(m.files(), true).model());
  }

  private static EmbeddingModel model(String id) {
    return new OnnxSessionModel(Langchain4jEmbedder.IN_PROCESS.stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow().files(), false);
  }

  private static void assertSameVectors(EmbeddingModel ours, EmbeddingModel theirs) {
    for (String text : new String[] {"overdue invoices by customer", "employees with pending leave requests"}) {
      float[] a = ours.embed(text).content().vector();
      float[] b = theirs.embed(text).content().vector();
      assertThat(a).hasSameSizeAs(b);
      for (int i = 0; i < a.length; i++) {
        assertThat(a[i]).as("dimension %d of '%s'", i, text).isCloseTo(b[i], within(1e-5f));
      }
    }
  }
}
