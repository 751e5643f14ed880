package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionPhrasesTest {

  @Test
  void aQuestionIsCutAtItsConnectingWordsIntoTheThingsItNames() {
    assertThat(QuestionPhrases.of("Revenue per product category in 2024")).containsExactly("product category", "revenue");
    assertThat(QuestionPhrases.of("How much cash came in per sales region in Q3 2024?")).containsExactly("sales region", "cash came");
  }

  @Test
  void theLongestPhrasesAreKeptAndNoneTwice() {
    assertThat(QuestionPhrases.of("Which customer's orders and which customer's invoices, by sales region and by warehouse city?"))
        .hasSize(QuestionPhrases.MAX).containsExactly("customer invoices", "customer orders");
    assertThat(QuestionPhrases.of("orders per customer and orders per customer")).containsExactly("customer", "orders");
  }

  @Test
  void aQuestionOfOnePhraseOrOfNoneHasNoPhrases() {
    assertThat(QuestionPhrases.of("monthly revenue")).isEmpty();
    assertThat(QuestionPhrases.of("What is the number of the most?")).isEmpty();
    assertThat(QuestionPhrases.of("2024")).isEmpty();
  }
}
