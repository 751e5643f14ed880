package dev.schemarag.core.retrieval;

import java.util.List;
import java.util.Optional;

/**
 * A table of a context packet.
 *
 * @param similarity fused relevance in 0..1 (relative to the best table); FK-expanded tables carry their own evidence
 * @param source why it is in the packet: retrieval, named (the question names it or a lookup it needs), pattern (a documented
 *     query pattern close to the question reads it), phrase (nearest to one phrase of the question), fk_expansion, join_bridge, or full_schema
 * @param matchedColumns columns that carried evidence for the question, best first
 */
public record PacketTable(String name, String compactDdl, double similarity, String source, Optional<String> module,
                          List<String> matchedColumns, int tokenEstimate) {}
