<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AttentionData</name>
    <message>
        <source>Entropy</source>
        <translation>Entropy</translation>
    </message>
    <message>
        <source>Mean distance</source>
        <translation>Mean distance</translation>
    </message>
    <message>
        <source>Previous-character share</source>
        <translation>Previous-character share</translation>
    </message>
    <message>
        <source>Line-start share</source>
        <translation>Line-start share</translation>
    </message>
    <message>
        <source>ent</source>
        <translation>ent</translation>
    </message>
    <message>
        <source>dist</source>
        <translation>dist</translation>
    </message>
    <message>
        <source>prev</source>
        <translation>prev</translation>
    </message>
    <message>
        <source>start</source>
        <translation>start</translation>
    </message>
</context>
<context>
    <name>AttentionGrid</name>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>Layer %1 · head %2</translation>
    </message>
    <message>
        <source>Export attention</source>
        <translation>Export attention</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG image (*.png);;SVG drawing (*.svg)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export failed</translation>
    </message>
    <message>
        <source>Sort heads by:</source>
        <translation>Sort heads by:</translation>
    </message>
    <message>
        <source>Largest first</source>
        <translation>Largest first</translation>
    </message>
    <message>
        <source>Export layer…</source>
        <translation>Export layer…</translation>
    </message>
    <message>
        <source>Head number</source>
        <translation>Head number</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Attention of layer %1</source>
        <translation>Attention of layer %1</translation>
    </message>
    <message>
        <source>rows: queries, columns: keys · weight 0 dark purple to 1 yellow · hatched grey: masked</source>
        <translation>rows: queries, columns: keys · weight 0 dark purple to 1 yellow · hatched grey: masked</translation>
    </message>
    <message>
        <source>Head %1 · moved %2 since step %3</source>
        <translation>Head %1 · moved %2 since step %3</translation>
    </message>
</context>
<context>
    <name>AttentionHeadDialog</name>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
</context>
<context>
    <name>AttentionHeatmap</name>
    <message>
        <source>query &apos;%1&apos; (pos %2) → key &apos;%3&apos; (pos %4): masked (a later position)</source>
        <translation>query &apos;%1&apos; (pos %2) → key &apos;%3&apos; (pos %4): masked (a later position)</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (pos %2) → key &apos;%3&apos; (pos %4): weight %5</source>
        <translation>query &apos;%1&apos; (pos %2) → key &apos;%3&apos; (pos %4): weight %5</translation>
    </message>
</context>
<context>
    <name>AttentionOverview</name>
    <message>
        <source>Show:</source>
        <translation>Show:</translation>
    </message>
    <message>
        <source>Heatmaps</source>
        <translation>Heatmaps</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Colour from %1 (dark) to %2 (yellow)</source>
        <translation>Colour from %1 (dark) to %2 (yellow)</translation>
    </message>
</context>
<context>
    <name>AttentionPage</name>
    <message>
        <source>Step %1: %2 characters, computed in %3 ms on the inspector thread.</source>
        <translation>Step %1: %2 characters, computed in %3 ms on the inspector thread.</translation>
    </message>
    <message>
        <source>Left out (not in the vocabulary): %1</source>
        <translation>Left out (not in the vocabulary): %1</translation>
    </message>
    <message numerus="yes">
        <source>The first %n character(s) were cropped to fit the context.</source>
        <translation>
            <numerusform>The first character was cropped to fit the context.</numerusform>
            <numerusform>The first %n characters were cropped to fit the context.</numerusform>
        </translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>Probe:</translation>
    </message>
    <message>
        <source>A text to run through the model</source>
        <translation>A text to run through the model</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>Layer:</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Refresh</translation>
    </message>
    <message>
        <source>Run the probe through the latest snapshot of the model</source>
        <translation>Run the probe through the latest snapshot of the model</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its attention. During training the heatmaps follow the model after every evaluation.</source>
        <translation>Train a model or open a checkpoint to see its attention. During training the heatmaps follow the model after every evaluation.</translation>
    </message>
</context>
<context>
    <name>AttributionExport</name>
    <message>
        <source>There is no attribution to export yet: click a character first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown file type “%1”: use .png, .svg, .csv or .json.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AttributionHistoryView</name>
    <message>
        <source>Nothing across the kept steps: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Across the kept steps: click a character while the timeline shows a run whose weights are kept at two steps or more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; across %2 kept steps, %3 to %4: its logit went from %5 to %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s share grew most, from %2 to %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logit of &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished">step</translation>
    </message>
    <message>
        <source>share of the logit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A (step %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B (step %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B - A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changed between A and B: nothing, they are the same kept step (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changed between A and B: each part&apos;s share of the logit at the kept steps measured nearest to the marks, largest change first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring the attribution at each kept step…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished">Stop</translation>
    </message>
    <message>
        <source>Stop measuring the kept steps</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AttributionView</name>
    <message>
        <source>L%1</source>
        <translation type="unfinished">L%1</translation>
    </message>
    <message>
        <source>token embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 H%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 projection bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 feed-forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 feed-forward bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>final norm bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No attribution: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a character of a text to see why the model wrote it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why &apos;%1&apos; (logit %2, probability %3%4): its margin over &apos;%5&apos; is %6. The parts below add up to the logit within %7 (model at step %8).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, its top guess</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Direct logit attribution: what each part adds to the logit, through the final LayerNorm with its scale frozen (largest first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which earlier characters mattered: gradient x input on each one&apos;s embedding (blue raises the logit, red lowers it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; at %2 (%3%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, then </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export why this character</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON document (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished">Export…</translation>
    </message>
    <message>
        <source>Save this view as a PNG or SVG picture, a CSV table or a JSON document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patch…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the patching lab on these characters: the same prompt with one character changed, and which layers and positions bring this character back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the heads that add most looked from this position (their attention, deeper green for more; character positions counted from 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (adds %2): most on %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CharacterMapCanvas</name>
    <message>
        <source>“%1” (%2)</source>
        <translation>“%1” (%2)</translation>
    </message>
    <message>
        <source>No neighbours measured.</source>
        <translation>No neighbours measured.</translation>
    </message>
    <message>
        <source>Nearest by cosine:</source>
        <translation>Nearest by cosine:</translation>
    </message>
    <message>
        <source>first principal axis (%1 of the variance)</source>
        <translation>first principal axis (%1 of the variance)</translation>
    </message>
    <message>
        <source>first principal axis</source>
        <translation>first principal axis</translation>
    </message>
    <message>
        <source>second principal axis (%1)</source>
        <translation>second principal axis (%1)</translation>
    </message>
    <message>
        <source>second principal axis</source>
        <translation>second principal axis</translation>
    </message>
</context>
<context>
    <name>CharacterMapView</name>
    <message>
        <source>positions %1 and %2: cosine %3</source>
        <translation>positions %1 and %2: cosine %3</translation>
    </message>
    <message>
        <source>Export the characters&apos; map</source>
        <translation>Export the characters&apos; map</translation>
    </message>
    <message>
        <source>cosine of two positions</source>
        <translation>cosine of two positions</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see where it puts each character.</source>
        <translation>Train a model or open a checkpoint to see where it puts each character.</translation>
    </message>
    <message>
        <source>Step %1 (%2 of %3 snapshots), %4 characters.</source>
        <translation>Step %1 (%2 of %3 snapshots), %4 characters.</translation>
    </message>
    <message>
        <source>The characters&apos; map at step %1</source>
        <translation>The characters&apos; map at step %1</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the map and the similarity as a PNG or SVG picture, or the map as CSV</source>
        <translation>Save the map and the similarity as a PNG or SVG picture, or the map as CSV</translation>
    </message>
    <message>
        <source>Step %1, %2 characters; each line leads from where the character was at step %3 (A) to where it is now.</source>
        <translation>Step %1, %2 characters; each line leads from where the character was at step %3 (A) to where it is now.</translation>
    </message>
    <message>
        <source>Where the model puts each character: its embedding (the vector it starts from) projected on the two directions along which the embeddings differ most. Characters the model treats alike end up close. Hover a character, or choose one below, for its nearest neighbours. Right: how alike the model&apos;s position vectors are, position against position (does position 10 look like 11?).</source>
        <translation>Where the model puts each character: its embedding (the vector it starts from) projected on the two directions along which the embeddings differ most. Characters the model treats alike end up close. Hover a character, or choose one below, for its nearest neighbours. Right: how alike the model&apos;s position vectors are, position against position (does position 10 look like 11?).</translation>
    </message>
</context>
<context>
    <name>CharacterNeighbours</name>
    <message>
        <source>Nearest characters of</source>
        <translation>Nearest characters of</translation>
    </message>
    <message>
        <source>“%1” %2</source>
        <translation>“%1” %2</translation>
    </message>
    <message>
        <source>no other character to compare with.</source>
        <translation>no other character to compare with.</translation>
    </message>
    <message>
        <source>at step %1, by the cosine of their embeddings (1: the same direction): %2</source>
        <translation>at step %1, by the cosine of their embeddings (1: the same direction): %2</translation>
    </message>
</context>
<context>
    <name>CheckpointPanel</name>
    <message>
        <source>File:</source>
        <translation>File:</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>Parameters:</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>Layers:</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>Heads:</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>Width:</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>Context:</translation>
    </message>
    <message>
        <source>Vocabulary:</source>
        <translation>Vocabulary:</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>Step:</translation>
    </message>
    <message>
        <source>Tokens seen:</source>
        <translation>Tokens seen:</translation>
    </message>
    <message>
        <source>Last val loss:</source>
        <translation>Last val loss:</translation>
    </message>
    <message>
        <source>%1 × %2 dimensions</source>
        <translation>%1 × %2 dimensions</translation>
    </message>
    <message>
        <source>%1 dimensions</source>
        <translation>%1 dimensions</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 characters</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1 (step %2)</translation>
    </message>
    <message>
        <source>not evaluated</source>
        <translation>not evaluated</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>No model yet: press Start to train one, or open a checkpoint with File &gt; Open checkpoint…</source>
        <translation>No model yet: press Start to train one, or open a checkpoint with File &gt; Open checkpoint…</translation>
    </message>
    <message>
        <source>not saved yet</source>
        <translation>not saved yet</translation>
    </message>
</context>
<context>
    <name>CorpusPanel</name>
    <message>
        <source>Tang poems (唐诗三百首)</source>
        <translation>Tang poems (唐诗三百首)</translation>
    </message>
    <message>
        <source>Song lyrics (宋词一百首)</source>
        <translation>Song lyrics (宋词一百首)</translation>
    </message>
    <message>
        <source>Python standard library</source>
        <translation>Python standard library</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>Open file…</translation>
    </message>
    <message>
        <source>Train on a UTF-8 text file (you can also drop one on the window)</source>
        <translation>Train on a UTF-8 text file (you can also drop one on the window)</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>Open folder…</translation>
    </message>
    <message>
        <source>Train on every text file of a folder</source>
        <translation>Train on every text file of a folder</translation>
    </message>
    <message>
        <source>Preview:</source>
        <translation>Preview:</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>File: %1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Loading %1…</translation>
    </message>
    <message>
        <source>No corpus loaded.</source>
        <translation>No corpus loaded.</translation>
    </message>
    <message>
        <source>%1 · %2 characters · vocabulary of %3</source>
        <translation>%1 · %2 characters · vocabulary of %3</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) left out</source>
        <translation>
            <numerusform>%n file left out</numerusform>
            <numerusform>%n files left out</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not load %1: %2</source>
        <translation>Could not load %1: %2</translation>
    </message>
    <message>
        <source>Preview, as the model reads it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read with the model&apos;s %1 characters: it knows every one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read with the model&apos;s %1 characters: %2 it does not know (%3%) are left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation: %1 of the %2 documents, drawn with the run&apos;s seed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation: the end of the text.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FeedForwardView</name>
    <message>
        <source>Layer %1</source>
        <translation>Layer %1</translation>
    </message>
    <message>
        <source>Neuron %1 at position %2 (%3): %4</source>
        <translation>Neuron %1 at position %2 (%3): %4</translation>
    </message>
    <message>
        <source>Neuron %1: no validation text to look for what fires it.</source>
        <translation>Neuron %1: no validation text to look for what fires it.</translation>
    </message>
    <message>
        <source>…%1[%2] %3</source>
        <translation>…%1[%2] %3</translation>
    </message>
    <message>
        <source>Neuron %1 fires most, in the first %2 characters of the validation text, at the bracketed character: %3</source>
        <translation>Neuron %1 fires most, in the first %2 characters of the validation text, at the bracketed character: %3</translation>
    </message>
    <message>
        <source>The feed-forward works on each position alone: one input vector gives one output wherever it stands. (No character repeats in the probe to show it on.)</source>
        <translation>The feed-forward works on each position alone: one input vector gives one output wherever it stands. (No character repeats in the probe to show it on.)</translation>
    </message>
    <message>
        <source>The feed-forward works on each position alone: one input vector gives one output wherever it stands. %1 is at positions %2 and %3: attention gave the two different inputs (%4 apart), so their outputs differ (%5 apart). Given position %2&apos;s input at both, the outputs differ by %6: the same, up to rounding.</source>
        <translation>The feed-forward works on each position alone: one input vector gives one output wherever it stands. %1 is at positions %2 and %3: attention gave the two different inputs (%4 apart), so their outputs differ (%5 apart). Given position %2&apos;s input at both, the outputs differ by %6: the same, up to rounding.</translation>
    </message>
    <message>
        <source>activation after the GELU</source>
        <translation>activation after the GELU</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its feed-forward neurons.</source>
        <translation>Train a model or open a checkpoint to see its feed-forward neurons.</translation>
    </message>
    <message>
        <source>The %1 of %2 neurons that fire hardest on the probe, hardest first (numbered from 1).</source>
        <translation>The %1 of %2 neurons that fire hardest on the probe, hardest first (numbered from 1).</translation>
    </message>
    <message>
        <source>After attention, each layer&apos;s feed-forward reads every character&apos;s vector on its own and passes it through a wide layer of neurons. Each row is a character of the probe, each column a neuron: a bright cell means that neuron fires strongly there. Point at a column to see which characters of the validation text fire it most.</source>
        <translation>After attention, each layer&apos;s feed-forward reads every character&apos;s vector on its own and passes it through a wide layer of neurons. Each row is a character of the probe, each column a neuron: a bright cell means that neuron fires strongly there. Point at a column to see which characters of the validation text fire it most.</translation>
    </message>
    <message>
        <source>Export the feed-forward</source>
        <translation>Export the feed-forward</translation>
    </message>
    <message>
        <source>The feed-forward of layer %1</source>
        <translation>The feed-forward of layer %1</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the layer shown as a PNG or SVG picture, or every layer&apos;s activations as a CSV table</source>
        <translation>Save the layer shown as a PNG or SVG picture, or every layer&apos;s activations as a CSV table</translation>
    </message>
</context>
<context>
    <name>FilmstripPage</name>
    <message>
        <source>Save filmstrip</source>
        <translation>Save filmstrip</translation>
    </message>
    <message>
        <source>No filmstrip: %1</source>
        <translation>No filmstrip: %1</translation>
    </message>
    <message>
        <source>Sampling run %1: %2 of %3 steps so far…</source>
        <translation>Sampling run %1: %2 of %3 steps so far…</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 steps.</source>
        <translation>Stopped after %1 of %2 steps.</translation>
    </message>
    <message>
        <source>No run on the timeline keeps its weights yet: train one, or open one in the Runs tab.</source>
        <translation>No run on the timeline keeps its weights yet: train one, or open one in the Runs tab.</translation>
    </message>
    <message>
        <source>Run %1 keeps its weights as it learns: sample every kept step from the same prompt and seed to see what the model wrote at each.</source>
        <translation>Run %1 keeps its weights as it learns: sample every kept step from the same prompt and seed to see what the model wrote at each.</translation>
    </message>
    <message>
        <source>Click a row to show that step in every tab.</source>
        <translation>Click a row to show that step in every tab.</translation>
    </message>
    <message>
        <source>Left out of the prompt (not in the vocabulary): %1</source>
        <translation>Left out of the prompt (not in the vocabulary): %1</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>Prompt:</translation>
    </message>
    <message>
        <source>(the start of a document)</source>
        <translation>(the start of a document)</translation>
    </message>
    <message>
        <source>Every sample continues this text; empty: each starts a document</source>
        <translation>Every sample continues this text; empty: each starts a document</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>Length:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>Temperature:</translation>
    </message>
    <message>
        <source>0 always picks the likeliest character</source>
        <translation>0 always picks the likeliest character</translation>
    </message>
    <message>
        <source>Sample every kept step</source>
        <translation>Sample every kept step</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Save…</translation>
    </message>
    <message>
        <source>Save the filmstrip as a web page (.html) or as text (.txt)</source>
        <translation>Save the filmstrip as a web page (.html) or as text (.txt)</translation>
    </message>
    <message>
        <source>Web page (*.html *.htm);;Text (*.txt)</source>
        <translation>Web page (*.html *.htm);;Text (*.txt)</translation>
    </message>
</context>
<context>
    <name>FilmstripView</name>
    <message>
        <source>No filmstrip yet: it needs a run that keeps its weights.</source>
        <translation>No filmstrip yet: it needs a run that keeps its weights.</translation>
    </message>
    <message>
        <source>from the start of a document</source>
        <translation>from the start of a document</translation>
    </message>
    <message>
        <source>from &quot;%1&quot;</source>
        <translation>from &quot;%1&quot;</translation>
    </message>
    <message>
        <source>A sample of up to %1 characters at each of %2 steps, %3, seed %4, temperature %5.</source>
        <translation>A sample of up to %1 characters at each of %2 steps, %3, seed %4, temperature %5.</translation>
    </message>
    <message>
        <source>Not evaluated at this step</source>
        <translation>Not evaluated at this step</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>Skipped: %1</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>Val loss</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Sample</translation>
    </message>
    <message>
        <source>The same prompt, seed and temperature at every step the run keeps: noise first, then characters, words and lines as the model learns.</source>
        <translation>The same prompt, seed and temperature at every step the run keeps: noise first, then characters, words and lines as the model learns.</translation>
    </message>
</context>
<context>
    <name>GenerationView</name>
    <message>
        <source>Prompt:</source>
        <translation>Prompt:</translation>
    </message>
    <message>
        <source>Type the beginning of a text, or leave empty</source>
        <translation>Type the beginning of a text, or leave empty</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>Temperature:</translation>
    </message>
    <message>
        <source>0 always picks the likeliest character</source>
        <translation>0 always picks the likeliest character</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>all</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p:</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>Length:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>Generate</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Generate one character and show why it was picked</source>
        <translation>Generate one character and show why it was picked</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>Output:</translation>
    </message>
    <message>
        <source>Likeliest next characters (the one picked in orange):</source>
        <translation>Likeliest next characters (the one picked in orange):</translation>
    </message>
    <message>
        <source>Attention of the new character, each head of layer</source>
        <translation>Attention of the new character, each head of layer</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>After each block</source>
        <translation>After each block</translation>
    </message>
    <message>
        <source>The logit lens: what the model would have predicted had it stopped after each block; the last column is this step</source>
        <translation>The logit lens: what the model would have predicted had it stopped after each block; the last column is this step</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>probability</translation>
    </message>
    <message>
        <source>A prompt holds at most %1 characters: only the last %1 of the pasted text were kept.</source>
        <translation>A prompt holds at most %1 characters: only the last %1 of the pasted text were kept.</translation>
    </message>
    <message numerus="yes">
        <source>%n character(s) of the prompt are not in the model&apos;s vocabulary (highlighted): %1. Remove or replace them.</source>
        <translation>
            <numerusform>%n character of the prompt is not in the model&apos;s vocabulary (highlighted): %1. Remove or replace them.</numerusform>
            <numerusform>%n characters of the prompt are not in the model&apos;s vocabulary (highlighted): %1. Remove or replace them.</numerusform>
        </translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (pos %2)</source>
        <translation>query &apos;%1&apos; (pos %2)</translation>
    </message>
    <message>
        <source>found verbatim in the training text</source>
        <translation>found verbatim in the training text</translation>
    </message>
    <message>
        <source>copied: %1% of the characters (spans of %2 or more found verbatim in the training text)</source>
        <translation>copied: %1% of the characters (spans of %2 or more found verbatim in the training text)</translation>
    </message>
    <message>
        <source>Samples:</source>
        <translation>Samples:</translation>
    </message>
    <message>
        <source>Several samples of the prompt, generated together: sample i uses seed + i - 1, so each is what that seed alone writes. Step makes one.</source>
        <translation>Several samples of the prompt, generated together: sample i uses seed + i - 1, so each is what that seed alone writes. Step makes one.</translation>
    </message>
    <message>
        <source>The other samples, generated together with the first (in the output above):</source>
        <translation>The other samples, generated together with the first (in the output above):</translation>
    </message>
    <message>
        <source>Sample %1 · seed %2</source>
        <translation>Sample %1 · seed %2</translation>
    </message>
</context>
<context>
    <name>HeadRolesView</name>
    <message>
        <source>Export the head roles</source>
        <translation>Export the head roles</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>%1 at step %2: %3 %4</source>
        <translation>%1 at step %2: %3 %4</translation>
    </message>
    <message>
        <source>A head attending evenly scores %1.</source>
        <translation>A head attending evenly scores %1.</translation>
    </message>
    <message>
        <source>Train a model: the scores of every head are measured at each snapshot.</source>
        <translation>Train a model: the scores of every head are measured at each snapshot.</translation>
    </message>
    <message>
        <source>Heatmap at step %1 (%2 of %3 snapshots).</source>
        <translation>Heatmap at step %1 (%2 of %3 snapshots).</translation>
    </message>
    <message>
        <source>%1 of every head; heatmap at step %2</source>
        <translation>%1 of every head; heatmap at step %2</translation>
    </message>
    <message>
        <source>What each head has learned to look at, snapshot by snapshot. A previous-token head attends to the character just before; an induction head finds an earlier occurrence of the current character and attends to what followed it, so it can continue a repeated text (Olsson et al., 2022). Induction heads tend to appear suddenly, after previous-token heads, and the loss drops when they do. The dashed line is the score of a head that attends evenly.</source>
        <translation>What each head has learned to look at, snapshot by snapshot. A previous-token head attends to the character just before; an induction head finds an earlier occurrence of the current character and attends to what followed it, so it can continue a repeated text (Olsson et al., 2022). Induction heads tend to appear suddenly, after previous-token heads, and the loss drops when they do. The dashed line is the score of a head that attends evenly.</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>Score:</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the plot and the heatmap as a PNG or SVG picture, or the scores as CSV</source>
        <translation>Save the plot and the heatmap as a PNG or SVG picture, or the scores as CSV</translation>
    </message>
    <message>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <source>change of the %1 since step %2</source>
        <translation>change of the %1 since step %2</translation>
    </message>
    <message>
        <source>At step %1 (A): %2</source>
        <translation>At step %1 (A): %2</translation>
    </message>
    <message>
        <source>Each head&apos;s change since step %1 (A): red rose, blue fell.</source>
        <translation>Each head&apos;s change since step %1 (A): red rose, blue fell.</translation>
    </message>
    <message>
        <source>Step %1 (A) is not among the steps measured, so nothing is compared.</source>
        <translation>Step %1 (A) is not among the steps measured, so nothing is compared.</translation>
    </message>
</context>
<context>
    <name>HealthView</name>
    <message>
        <source>Layer %1&apos;s updates are %2x larger than the other layers&apos; (step %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At step %1 the updates are %2x the healthy 1e-3 of the weights: the learning rate is likely too high.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss spike at step %1: the gradient norm is %2x its median.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 heads attend only to the previous character (step %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 heads&apos; attention collapsed onto one character, entropy near 0 (step %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training health, per layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The health of a run is measured every few steps while it trains: the size of each layer&apos;s gradients and updates, its feed-forward units that never fire, and how spread each head&apos;s attention is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished">Export…</translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>update / weight (guide 1e-3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>units that never fire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head entropy, nats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished">step</translation>
    </message>
    <message>
        <source>collapsed head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export training health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of every figure (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured at step %1, the nearest to step %2: gradient norm %3, update / weight %4 (the layers&apos; median), %5 of the feed-forward units never fire, lowest head entropy %6 nats.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The latest %1 of %2 warnings:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InsideData</name>
    <message>
        <source>embeddings</source>
        <translation>embeddings</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>block %1</translation>
    </message>
    <message>
        <source>L%1 attention</source>
        <translation>L%1 attention</translation>
    </message>
    <message>
        <source>L%1 feed-forward</source>
        <translation>L%1 feed-forward</translation>
    </message>
    <message>
        <source>Induction score</source>
        <translation>Induction score</translation>
    </message>
    <message>
        <source>Previous-token score</source>
        <translation>Previous-token score</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
    <message>
        <source>letter</source>
        <translation>letter</translation>
    </message>
    <message>
        <source>digit</source>
        <translation>digit</translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation>punctuation</translation>
    </message>
    <message>
        <source>CJK</source>
        <translation>CJK</translation>
    </message>
    <message>
        <source>space</source>
        <translation>space</translation>
    </message>
    <message>
        <source>other</source>
        <translation>other</translation>
    </message>
    <message>
        <source>The probe needs two characters the model knows for the logit lens.</source>
        <translation>The probe needs two characters the model knows for the logit lens.</translation>
    </message>
    <message>
        <source>This model has no position embeddings to compare (a rung of the architecture ladder).</source>
        <translation>This model has no position embeddings to compare (a rung of the architecture ladder).</translation>
    </message>
    <message>
        <source>This model has no heads to score: it is a bigram model without layers (a rung of the architecture ladder).</source>
        <translation>This model has no heads to score: it is a bigram model without layers (a rung of the architecture ladder).</translation>
    </message>
    <message>
        <source>No text of two known characters to score the heads on.</source>
        <translation>No text of two known characters to score the heads on.</translation>
    </message>
</context>
<context>
    <name>InsidePage</name>
    <message>
        <source>The model at step %1, as the timeline below the tabs chose it.</source>
        <translation>The model at step %1, as the timeline below the tabs chose it.</translation>
    </message>
    <message>
        <source>No model yet: train one, open a checkpoint or open a run in the Runs tab.</source>
        <translation>No model yet: train one, open a checkpoint or open a run in the Runs tab.</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logit lens</translation>
    </message>
    <message>
        <source>Head roles</source>
        <translation>Head roles</translation>
    </message>
    <message>
        <source>Knock-out</source>
        <translation>Knock-out</translation>
    </message>
    <message>
        <source>Characters&apos; map</source>
        <translation>Characters&apos; map</translation>
    </message>
    <message>
        <source>No logit lens at this step: the probe needs two characters the model knows.</source>
        <translation>No logit lens at this step: the probe needs two characters the model knows.</translation>
    </message>
    <message>
        <source>No feed-forward at this step: the probe has no character the model knows.</source>
        <translation>No feed-forward at this step: the probe has no character the model knows.</translation>
    </message>
    <message>
        <source>No residual stream at this step: the probe has no character the model knows.</source>
        <translation>No residual stream at this step: the probe has no character the model knows.</translation>
    </message>
    <message>
        <source>Inside the model as it trains: what each block would predict, what each head has learned to do, what each part is worth, which feed-forward neurons fire, what each part writes into the residual stream, and where the characters sit. Move the timeline below the tabs to see the model at any step the run keeps.</source>
        <translation>Inside the model as it trains: what each block would predict, what each head has learned to do, what each part is worth, which feed-forward neurons fire, what each part writes into the residual stream, and where the characters sit. Move the timeline below the tabs to see the model at any step the run keeps.</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>Feed-forward</translation>
    </message>
    <message>
        <source>Residual stream</source>
        <translation>Residual stream</translation>
    </message>
</context>
<context>
    <name>KnockoutView</name>
    <message>
        <source>Export the knock-out</source>
        <translation>Export the knock-out</translation>
    </message>
    <message>
        <source>loss increase, nats</source>
        <translation>loss increase, nats</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>%1 was not knocked out.</source>
        <translation>%1 was not knocked out.</translation>
    </message>
    <message>
        <source>%1 knocked out: loss %2 nats, %3 against %4 with every head</source>
        <translation>%1 knocked out: loss %2 nats, %3 against %4 with every head</translation>
    </message>
    <message>
        <source>Knocking out every head and block in turn…</source>
        <translation>Knocking out every head and block in turn…</translation>
    </message>
    <message>
        <source>Press Knock out to measure what each head and block is worth to the model.</source>
        <translation>Press Knock out to measure what each head and block is worth to the model.</translation>
    </message>
    <message>
        <source>Baseline: validation loss %1 nats with nothing knocked out (model at step %2).</source>
        <translation>Baseline: validation loss %1 nats with nothing knocked out (model at step %2).</translation>
    </message>
    <message>
        <source>Baseline: validation loss %1 nats with nothing knocked out.</source>
        <translation>Baseline: validation loss %1 nats with nothing knocked out.</translation>
    </message>
    <message>
        <source>Knock-out at step %1</source>
        <translation>Knock-out at step %1</translation>
    </message>
    <message>
        <source>Knock-out</source>
        <translation>Knock-out</translation>
    </message>
    <message>
        <source>Largest increases</source>
        <translation>Largest increases</translation>
    </message>
    <message>
        <source>What each part of the model is worth: the validation loss with one head (or a layer&apos;s whole attention or feed-forward block) switched off, its output set to zero. A large increase means the model relies on that part; near zero, it could do without.</source>
        <translation>What each part of the model is worth: the validation loss with one head (or a layer&apos;s whole attention or feed-forward block) switched off, its output set to zero. A large increase means the model relies on that part; near zero, it could do without.</translation>
    </message>
    <message>
        <source>Knock out</source>
        <translation>Knock out</translation>
    </message>
    <message>
        <source>Measure the validation loss with each head and each block knocked out in turn</source>
        <translation>Measure the validation loss with each head and each block knocked out in turn</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the heatmap as a PNG or SVG picture, or the table as CSV</source>
        <translation>Save the heatmap as a PNG or SVG picture, or the table as CSV</translation>
    </message>
    <message>
        <source>Knocked out</source>
        <translation>Knocked out</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Layer</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <source>Loss (nats)</source>
        <translation>Loss (nats)</translation>
    </message>
    <message>
        <source>Increase (nats)</source>
        <translation>Increase (nats)</translation>
    </message>
</context>
<context>
    <name>LadderView</name>
    <message>
        <source>bigram</source>
        <translation>bigram</translation>
    </message>
    <message>
        <source>one attention head</source>
        <translation>one attention head</translation>
    </message>
    <message>
        <source>one head, unscaled</source>
        <translation>one head, unscaled</translation>
    </message>
    <message>
        <source>heads and projection</source>
        <translation>heads and projection</translation>
    </message>
    <message>
        <source>+ feed-forward</source>
        <translation>+ feed-forward</translation>
    </message>
    <message>
        <source>one whole block</source>
        <translation>one whole block</translation>
    </message>
    <message>
        <source>CharGPT</source>
        <translation>CharGPT</translation>
    </message>
    <message>
        <source>Token embeddings and the language-model head only: each character guesses the next from itself alone.</source>
        <translation>Token embeddings and the language-model head only: each character guesses the next from itself alone.</translation>
    </message>
    <message>
        <source>Position embeddings and one masked self-attention head: each position looks back over the context.</source>
        <translation>Position embeddings and one masked self-attention head: each position looks back over the context.</translation>
    </message>
    <message>
        <source>The same without dividing the scores by √(head size): the softmax saturates and attends to one character.</source>
        <translation>The same without dividing the scores by √(head size): the softmax saturates and attends to one character.</translation>
    </message>
    <message>
        <source>Several smaller heads, scaled again, and the output projection: several things looked at at once.</source>
        <translation>Several smaller heads, scaled again, and the output projection: several things looked at at once.</translation>
    </message>
    <message>
        <source>The feed-forward after the attention: each position thinks about what it gathered.</source>
        <translation>The feed-forward after the attention: each position thinks about what it gathered.</translation>
    </message>
    <message>
        <source>Residual connections and pre-norm LayerNorms around both halves: one whole block, which trains deep.</source>
        <translation>Residual connections and pre-norm LayerNorms around both halves: one whole block, which trains deep.</translation>
    </message>
    <message>
        <source>Blocks stacked, with the final LayerNorm: the full CharGPT.</source>
        <translation>Blocks stacked, with the final LayerNorm: the full CharGPT.</translation>
    </message>
    <message>
        <source>training… %1</source>
        <translation>training… %1</translation>
    </message>
    <message>
        <source>%1 (stopped)</source>
        <translation>%1 (stopped)</translation>
    </message>
    <message>
        <source>%1 (the loss stopped being finite)</source>
        <translation>%1 (the loss stopped being finite)</translation>
    </message>
    <message>
        <source>The architecture ladder builds CharGPT part by part: each rung adds one part to the rung before and trains alike on the loaded corpus, so the drop in validation loss shows what that part is worth. Each rung is recorded in the Runs tab.</source>
        <translation>The architecture ladder builds CharGPT part by part: each rung adds one part to the rung before and trains alike on the loaded corpus, so the drop in validation loss shows what that part is worth. Each rung is recorded in the Runs tab.</translation>
    </message>
    <message>
        <source>Train the Architecture Ladder</source>
        <translation>Train the Architecture Ladder</translation>
    </message>
    <message>
        <source>rung</source>
        <translation>rung</translation>
    </message>
    <message>
        <source>best validation loss (nats)</source>
        <translation>best validation loss (nats)</translation>
    </message>
    <message>
        <source>uniform floor</source>
        <translation>uniform floor</translation>
    </message>
    <message>
        <source>unigram floor</source>
        <translation>unigram floor</translation>
    </message>
    <message>
        <source>bigram floor</source>
        <translation>bigram floor</translation>
    </message>
    <message>
        <source>Rung</source>
        <translation>Rung</translation>
    </message>
    <message>
        <source>What it adds</source>
        <translation>What it adds</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameters</translation>
    </message>
    <message>
        <source>Best val loss</source>
        <translation>Best val loss</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Steps</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Seconds</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences, one after the other</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>the corpus %1 is no longer there.</source>
        <translation>the corpus %1 is no longer there.</translation>
    </message>
    <message>
        <source>the text of %1 has changed since this ladder trained.</source>
        <translation>the text of %1 has changed since this ladder trained.</translation>
    </message>
    <message>
        <source>the corpus %1 cannot be read: %2</source>
        <translation>the corpus %1 cannot be read: %2</translation>
    </message>
    <message>
        <source>No floors are drawn: %1</source>
        <translation>No floors are drawn: %1</translation>
    </message>
    <message>
        <source>Measuring the floors of the corpus&apos;s validation text…</source>
        <translation>Measuring the floors of the corpus&apos;s validation text…</translation>
    </message>
    <message>
        <source>at an unknown time</source>
        <translation>at an unknown time</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 (%n rung(s))</source>
        <translation>
            <numerusform>%1, %2 (%n rung)</numerusform>
            <numerusform>%1, %2 (%n rungs)</numerusform>
        </translation>
    </message>
    <message>
        <source>An earlier ladder can be picked once this one has ended.</source>
        <translation>An earlier ladder can be picked once this one has ended.</translation>
    </message>
    <message>
        <source>The ladders the run library keeps, the newest first.</source>
        <translation>The ladders the run library keeps, the newest first.</translation>
    </message>
    <message>
        <source>The ladder training now, on %1.</source>
        <translation>The ladder training now, on %1.</translation>
    </message>
    <message>
        <source>The ladder training now.</source>
        <translation>The ladder training now.</translation>
    </message>
    <message>
        <source>The ladder trained in this window.</source>
        <translation>The ladder trained in this window.</translation>
    </message>
    <message>
        <source>No ladder has been trained yet: Train the Architecture Ladder trains one on the loaded corpus (and chargpt ladder on any), and the newest is shown here.</source>
        <translation>No ladder has been trained yet: Train the Architecture Ladder trains one on the loaded corpus (and chargpt ladder on any), and the newest is shown here.</translation>
    </message>
    <message>
        <source>%1 (no end recorded)</source>
        <translation>%1 (no end recorded)</translation>
    </message>
    <message>
        <source>&amp;Ladder:</source>
        <translation>&amp;Ladder:</translation>
    </message>
    <message>
        <source>The ladder trained on %1, started %2, read back from the run library.</source>
        <translation>The ladder trained on %1, started %2, read back from the run library.</translation>
    </message>
    <message>
        <source>No ladder trained before can be shown. %1</source>
        <translation>No ladder trained before can be shown. %1</translation>
    </message>
    <message>
        <source>Rung %1 (%2) has the lowest loss, %3 nats; the later rung, with more parts, does worse (%4).</source>
        <translation>Rung %1 (%2) has the lowest loss, %3 nats; the later rung, with more parts, does worse (%4).</translation>
    </message>
    <message>
        <source>Rung %1 (%2) has the lowest loss, %3 nats; every later rung, with more parts, does worse (%4 to %5).</source>
        <translation>Rung %1 (%2) has the lowest loss, %3 nats; every later rung, with more parts, does worse (%4 to %5).</translation>
    </message>
    <message>
        <source>This text is too little for their parameters (up to %1): they learn the training text by heart instead of what carries over to new text. More text, not more parts, would help.</source>
        <translation>This text is too little for their parameters (up to %1): they learn the training text by heart instead of what carries over to new text. More text, not more parts, would help.</translation>
    </message>
    <message>
        <source>This text is too little for the larger models: they learn the training text by heart instead of what carries over to new text. More text, not more parts, would help.</source>
        <translation>This text is too little for the larger models: they learn the training text by heart instead of what carries over to new text. More text, not more parts, would help.</translation>
    </message>
    <message>
        <source>Rung %1 (%2) is the first below the bigram floor: %3 against %4 nats, so it uses more than the one character before.</source>
        <translation>Rung %1 (%2) is the first below the bigram floor: %3 against %4 nats, so it uses more than the one character before.</translation>
    </message>
    <message>
        <source>Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats). The bigram floor (%5) counts the validation text&apos;s own pairs on itself: on a text this small no model trained on other text comes near it.</source>
        <translation>Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats). The bigram floor (%5) counts the validation text&apos;s own pairs on itself: on a text this small no model trained on other text comes near it.</translation>
    </message>
    <message>
        <source>Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats); no rung beats the bigram floor (%5) yet.</source>
        <translation>Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats); no rung beats the bigram floor (%5) yet.</translation>
    </message>
    <message>
        <source>No rung is below the unigram floor (%1 nats) yet: train longer.</source>
        <translation>No rung is below the unigram floor (%1 nats) yet: train longer.</translation>
    </message>
    <message>
        <source>The biggest drop, %1 nats, comes at rung %2 (%3), which adds: %4</source>
        <translation>The biggest drop, %1 nats, comes at rung %2 (%3), which adds: %4</translation>
    </message>
    <message>
        <source>%1-gram floor</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearningRateView</name>
    <message>
        <source>Learning-rate finder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find trains a new model of the current settings for a few hundred steps while its learning rate grows from 1e-5 to 1. The loss falls while the rate is useful and climbs once it is too large. The model you train is not touched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished">Stop</translation>
    </message>
    <message>
        <source>Find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this rate (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished">Export…</translation>
    </message>
    <message>
        <source>learning rate (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training loss, nats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss of each step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>smoothed loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep found nothing: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steepest fall at %1; lowest loss at %2. Suggested: %3, a tenth of the lowest point (red line).%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The loss ran away past it, so the sweep ended early.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the learning-rate sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)</source>
        <translation type="unfinished">PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)</translation>
    </message>
</context>
<context>
    <name>LessonController</name>
    <message>
        <source>Lesson</source>
        <translation>Lesson</translation>
    </message>
    <message>
        <source>L&amp;essons</source>
        <translation>L&amp;essons</translation>
    </message>
    <message>
        <source>Open a Lesson File…</source>
        <translation>Open a Lesson File…</translation>
    </message>
    <message>
        <source>Presentation Mode</source>
        <translation>Presentation Mode</translation>
    </message>
    <message>
        <source>The built-in lesson %1 is missing.</source>
        <translation>The built-in lesson %1 is missing.</translation>
    </message>
    <message>
        <source>Open a Lesson</source>
        <translation>Open a Lesson</translation>
    </message>
    <message>
        <source>Lessons (*.json);;All files (*)</source>
        <translation>Lessons (*.json);;All files (*)</translation>
    </message>
    <message>
        <source>Presentation Type Size</source>
        <translation>Presentation Type Size</translation>
    </message>
    <message>
        <source>To Fit the Screen</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LessonPane</name>
    <message>
        <source>Train a model or open one first, and let the Attention tab show it: this answer is computed from your model.</source>
        <translation>Train a model or open one first, and let the Attention tab show it: this answer is computed from your model.</translation>
    </message>
    <message>
        <source>softmax(x) = %1
softmax(1000 x) = %2
The largest score takes %3% of the weight: multiplied scores push softmax towards a one-hot vector, so a few large scores would decide everything.</source>
        <translation>softmax(x) = %1
softmax(1000 x) = %2
The largest score takes %3% of the weight: multiplied scores push softmax towards a one-hot vector, so a few large scores would decide everything.</translation>
    </message>
    <message>
        <source>The spread (standard deviation) of q·k for random q and k: %1 at head size 8, %2 at head size 64, about √H. Divided by √H: %3 and %4. The scaling keeps softmax&apos;s input at the same spread whatever the head size.</source>
        <translation>The spread (standard deviation) of q·k for random q and k: %1 at head size 8, %2 at head size 64, about √H. Divided by √H: %3 and %4. The scaling keeps softmax&apos;s input at the same spread whatever the head size.</translation>
    </message>
    <message>
        <source>Yes: layer %1, head %2 puts %3% of its attention on the previous character, on the probe text. Find it in the Attention tab: a bright line just below the diagonal.</source>
        <translation>Yes: layer %1, head %2 puts %3% of its attention on the previous character, on the probe text. Find it in the Attention tab: a bright line just below the diagonal.</translation>
    </message>
    <message>
        <source>Not yet: the head that looks most at the previous character, layer %1, head %2, puts %3% of its attention there. Such heads often appear as training goes on.</source>
        <translation>Not yet: the head that looks most at the previous character, layer %1, head %2, puts %3% of its attention there. Such heads often appear as training goes on.</translation>
    </message>
    <message>
        <source>Your prediction was right.</source>
        <translation>Your prediction was right.</translation>
    </message>
    <message>
        <source>Not what you predicted.</source>
        <translation>Not what you predicted.</translation>
    </message>
    <message>
        <source>The answer: %1</source>
        <translation>The answer: %1</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Back</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Next</translation>
    </message>
    <message>
        <source>Check my prediction</source>
        <translation>Check my prediction</translation>
    </message>
    <message>
        <source>Predict first</source>
        <translation>Predict first</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Step %1 of %2</translation>
    </message>
    <message>
        <source>No lesson is open. Choose one in the Lessons menu.</source>
        <translation>No lesson is open. Choose one in the Lessons menu.</translation>
    </message>
    <message>
        <source>In all %1 rows of every head of your model, the weights on a character and those before it add up to 1 (to float rounding): the characters after it get nothing. The mask set their scores to −∞, and softmax turns −∞ into exactly 0.</source>
        <translation>In all %1 rows of every head of your model, the weights on a character and those before it add up to 1 (to float rounding): the characters after it get nothing. The mask set their scores to −∞, and softmax turns −∞ into exactly 0.</translation>
    </message>
    <message>
        <source>In some of the %1 rows of your model&apos;s heads, the weights on a character and those before it add up to only %2: %3 went to characters after it. This model was not trained with the causal mask.</source>
        <translation>In some of the %1 rows of your model&apos;s heads, the weights on a character and those before it add up to only %2: %3 went to characters after it. This model was not trained with the causal mask.</translation>
    </message>
    <message>
        <source>layer %1: %2</source>
        <translation>layer %1: %2</translation>
    </message>
    <message>
        <source>Press Knock out in the Inside tab&apos;s Knock-out view first: this answer is the loss your model reaches without each part.</source>
        <translation>Press Knock out in the Inside tab&apos;s Knock-out view first: this answer is the loss your model reaches without each part.</translation>
    </message>
    <message>
        <source>The validation loss is %1 nats with every part; without a layer&apos;s feed-forward it rises by (nats) %2. Attention gathers from other characters; the feed-forward is where each position turns that into its guess.</source>
        <translation>The validation loss is %1 nats with every part; without a layer&apos;s feed-forward it rises by (nats) %2. Attention gathers from other characters; the feed-forward is where each position turns that into its guess.</translation>
    </message>
    <message>
        <source>Press Start and let the model train until its first evaluations: this answer is its validation loss.</source>
        <translation>Press Start and let the model train until its first evaluations: this answer is its validation loss.</translation>
    </message>
    <message>
        <source>Your model&apos;s lowest validation loss is %1 nats, at step %2. A uniform guess scores %3 (ln V); a model that ignores the context cannot go below %4, the unigram entropy of the text. Below it, the model uses what came before each character.</source>
        <translation>Your model&apos;s lowest validation loss is %1 nats, at step %2. A uniform guess scores %3 (ln V); a model that ignores the context cannot go below %4, the unigram entropy of the text. Below it, the model uses what came before each character.</translation>
    </message>
    <message>
        <source>Measured on your model at step %1 of run %2.</source>
        <translation>Measured on your model at step %1 of run %2.</translation>
    </message>
    <message>
        <source>Measured on your model at step %1.</source>
        <translation>Measured on your model at step %1.</translation>
    </message>
    <message>
        <source>Its newest step is %1, where the answer may differ: move the timeline there and check again.</source>
        <translation>Its newest step is %1, where the answer may differ: move the timeline there and check again.</translation>
    </message>
    <message>
        <source>Click a character in the Surprise or Generate tab first: this answer is what the why window finds for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For &apos;%1&apos; the part that adds most to its logit is %2: %3 of %4. The why window lists the others, and where the heads that add most looked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the patching lab first (Preset, then Run): this answer is what it finds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corrupted prompt changes the last character, which is already at the last position: change an earlier one and run again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after layer %1: %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lab&apos;s result has no layer whose stream at the last position restores half of the difference: run it again to the end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stream at the last position, patched alone, restores %1. It first restores half or more after layer %2: that layer&apos;s attention carried the changed character (&apos;%3&apos; at position %4) to the last position.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LiveScoresView</name>
    <message>
        <source>query %1 (row %2) · key %3 (column %4): %5</source>
        <translation>query %1 (row %2) · key %3 (column %4): %5</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint: the scores of its heads for the probe text of the Attention tab appear here.</source>
        <translation>Train a model or open a checkpoint: the scores of its heads for the probe text of the Attention tab appear here.</translation>
    </message>
    <message>
        <source>Step %1, layer %2, head %3, H = %4, T = %5. Standard deviation of q·kᵀ: %6; divided by √H = %7: %8 (all T×T scores), %9 (the unmasked ones that reach the softmax).</source>
        <translation>Step %1, layer %2, head %3, H = %4, T = %5. Standard deviation of q·kᵀ: %6; divided by √H = %7: %8 (all T×T scores), %9 (the unmasked ones that reach the softmax).</translation>
    </message>
    <message>
        <source>The real scores of one head of the model for the probe text (Attention tab): q·kᵀ/√H before the mask, then with -inf above the diagonal, where a query would see a later character. The softmax of each masked row is the head&apos;s attention.</source>
        <translation>The real scores of one head of the model for the probe text (Attention tab): q·kᵀ/√H before the mask, then with -inf above the diagonal, where a query would see a later character. The softmax of each masked row is the head&apos;s attention.</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>Layer:</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>Head:</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Refresh</translation>
    </message>
    <message>
        <source>Scaled scores q·kᵀ/√H (rows: queries, columns: keys)</source>
        <translation>Scaled scores q·kᵀ/√H (rows: queries, columns: keys)</translation>
    </message>
    <message>
        <source>After the causal mask</source>
        <translation>After the causal mask</translation>
    </message>
</context>
<context>
    <name>LogitLensView</name>
    <message>
        <source>Export the logit lens</source>
        <translation>Export the logit lens</translation>
    </message>
    <message>
        <source>%1, position %2 (%3)</source>
        <translation>%1, position %2 (%3)</translation>
    </message>
    <message>
        <source>Top guess: %1, %2</source>
        <translation>Top guess: %1, %2</translation>
    </message>
    <message>
        <source>No next character to compare with.</source>
        <translation>No next character to compare with.</translation>
    </message>
    <message>
        <source>True next character: %1, rank %2, %3</source>
        <translation>True next character: %1, rank %2, %3</translation>
    </message>
    <message>
        <source>probability of the top guess</source>
        <translation>probability of the top guess</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see what it predicts after each block.</source>
        <translation>Train a model or open a checkpoint to see what it predicts after each block.</translation>
    </message>
    <message>
        <source>Model at step %1. Bright cells: the layer is already sure of its guess.</source>
        <translation>Model at step %1. Bright cells: the layer is already sure of its guess.</translation>
    </message>
    <message>
        <source>Bright cells: the layer is already sure of its guess.</source>
        <translation>Bright cells: the layer is already sure of its guess.</translation>
    </message>
    <message>
        <source>Logit lens at step %1</source>
        <translation>Logit lens at step %1</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logit lens</translation>
    </message>
    <message>
        <source>What the model would predict if it stopped after each block: the last row is its real prediction. Each cell shows the likeliest next character at that position, on the colour of its probability; hover a cell for the true next character and its rank.</source>
        <translation>What the model would predict if it stopped after each block: the last row is its real prediction. Each cell shows the likeliest next character at that position, on the colour of its probability; hover a cell for the true next character and its rank.</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the grid as a PNG or SVG picture, or a CSV table</source>
        <translation>Save the grid as a PNG or SVG picture, or a CSV table</translation>
    </message>
</context>
<context>
    <name>LossPlot</name>
    <message>
        <source>train loss</source>
        <translation>train loss</translation>
    </message>
    <message>
        <source>train loss (smoothed)</source>
        <translation>train loss (smoothed)</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>validation loss</translation>
    </message>
    <message>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <source>Export loss curves</source>
        <translation>Export loss curves</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>learning rate</translation>
    </message>
    <message>
        <source>No loss yet: press Start to train</source>
        <translation>No loss yet: press Start to train</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>Smoothing:</translation>
    </message>
    <message>
        <source>Weight of the past in the smoothed curve</source>
        <translation>Weight of the past in the smoothed curve</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Log scale</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Learning rate</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Fit</translation>
    </message>
    <message>
        <source>Fit the view to the data and follow new points (or double-click the plot)</source>
        <translation>Fit the view to the data and follow new points (or double-click the plot)</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the plot as PNG, SVG or PDF, or all points as CSV</source>
        <translation>Save the plot as PNG, SVG or PDF, or all points as CSV</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <source>train loss %1</source>
        <translation>train loss %1</translation>
    </message>
    <message>
        <source>smoothed %1</source>
        <translation>smoothed %1</translation>
    </message>
    <message>
        <source>learning rate %1</source>
        <translation>learning rate %1</translation>
    </message>
    <message>
        <source>validation loss %1 (step %2)</source>
        <translation>validation loss %1 (step %2)</translation>
    </message>
    <message>
        <source>uniform guess: ln V = %1 · above it: worse than guessing</source>
        <translation>uniform guess: ln V = %1 · above it: worse than guessing</translation>
    </message>
    <message>
        <source>uniform guess: log₂ V = %1 · above it: worse than guessing</source>
        <translation>uniform guess: log₂ V = %1 · above it: worse than guessing</translation>
    </message>
    <message>
        <source>uniform guess: V = %1 · above it: worse than guessing</source>
        <translation>uniform guess: V = %1 · above it: worse than guessing</translation>
    </message>
    <message>
        <source>no context: unigram entropy = %1</source>
        <translation>no context: unigram entropy = %1</translation>
    </message>
    <message>
        <source>no context: unigram perplexity = %1</source>
        <translation>no context: unigram perplexity = %1</translation>
    </message>
    <message>
        <source>%1 nats</source>
        <translation>%1 nats</translation>
    </message>
    <message>
        <source>%1 bits</source>
        <translation>%1 bits</translation>
    </message>
    <message>
        <source>perplexity %1</source>
        <translation>perplexity %1</translation>
    </message>
    <message>
        <source>loss (nats per character)</source>
        <translation>loss (nats per character)</translation>
    </message>
    <message>
        <source>loss (bits per character)</source>
        <translation>loss (bits per character)</translation>
    </message>
    <message>
        <source>perplexity (e^loss)</source>
        <translation>perplexity (e^loss)</translation>
    </message>
    <message>
        <source>lowest validation loss</source>
        <translation>lowest validation loss</translation>
    </message>
    <message>
        <source>nats per character</source>
        <translation>nats per character</translation>
    </message>
    <message>
        <source>bits per character</source>
        <translation>bits per character</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>perplexity</translation>
    </message>
    <message>
        <source>Show the loss in nats per character, in bits per character (nats / ln 2) or as perplexity (e^nats: how many characters the model hesitates between)</source>
        <translation>Show the loss in nats per character, in bits per character (nats / ln 2) or as perplexity (e^nats: how many characters the model hesitates between)</translation>
    </message>
    <message>
        <source>memorising from here</source>
        <translation>memorising from here</translation>
    </message>
    <message>
        <source>From step %1 validation loss rose while training loss kept falling: the model is memorising its training text instead of learning what carries over to new text.</source>
        <translation>From step %1 validation loss rose while training loss kept falling: the model is memorising its training text instead of learning what carries over to new text.</translation>
    </message>
    <message>
        <source>Lowest validation loss: %1 at step %2.</source>
        <translation>Lowest validation loss: %1 at step %2.</translation>
    </message>
    <message>
        <source>Uniform guess (%1): the loss of a model that gives every character of the vocabulary the same chance; a validation curve above it does worse than guessing.</source>
        <translation>Uniform guess (%1): the loss of a model that gives every character of the vocabulary the same chance; a validation curve above it does worse than guessing.</translation>
    </message>
    <message>
        <source>No context (%1): the loss of a model that ignores the text before and guesses each character by how often it occurs in the training text.</source>
        <translation>No context (%1): the loss of a model that ignores the text before and guesses each character by how often it occurs in the training text.</translation>
    </message>
    <message>
        <source>loss (nats)</source>
        <translation>loss (nats)</translation>
    </message>
    <message>
        <source>loss (bits)</source>
        <translation>loss (bits)</translation>
    </message>
    <message>
        <source>%1; solid: validation, dashed: training</source>
        <translation>%1; solid: validation, dashed: training</translation>
    </message>
    <message>
        <source>No runs to draw</source>
        <translation>No runs to draw</translation>
    </message>
    <message>
        <source>tokens seen</source>
        <translation>tokens seen</translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation>training time (s)</translation>
    </message>
    <message>
        <source>%1: validation loss %2 (%3 %4)</source>
        <translation>%1: validation loss %2 (%3 %4)</translation>
    </message>
    <message>
        <source>, lowest %1, highest %2</source>
        <translation>, lowest %1, highest %2</translation>
    </message>
    <message>
        <source>%1-gram floor %2 · passed at step %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-gram floor %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-gram floor (%2): the validation loss of a classic model that sees the last %3 character(s) only (interpolated Kneser-Ney, fitted to the training text). A model above it has learned less than those characters tell.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>solid: validation, dashed: training</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Run %1 keeps no weights, so the timeline cannot replay it.</source>
        <translation>Run %1 keeps no weights, so the timeline cannot replay it.</translation>
    </message>
    <message>
        <source>These weights are skipped, the views stay as they were: %1</source>
        <translation>These weights are skipped, the views stay as they were: %1</translation>
    </message>
    <message>
        <source>Run library: %1</source>
        <translation>Run library: %1</translation>
    </message>
    <message>
        <source>This run is not recorded in the run library: %1</source>
        <translation>This run is not recorded in the run library: %1</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Runs</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Open checkpoint…</source>
        <translation>&amp;Open checkpoint…</translation>
    </message>
    <message>
        <source>Could not import “%1”: %2 The current model is unchanged.</source>
        <translation>Could not import “%1”: %2 The current model is unchanged.</translation>
    </message>
    <message>
        <source>&amp;Import PyTorch model…</source>
        <translation>&amp;Import PyTorch model…</translation>
    </message>
    <message>
        <source>Open a state_dict saved by the book&apos;s Python code, with its vocabulary</source>
        <translation>Open a state_dict saved by the book&apos;s Python code, with its vocabulary</translation>
    </message>
    <message>
        <source>&amp;Export settings for PyTorch…</source>
        <translation>&amp;Export settings for PyTorch…</translation>
    </message>
    <message>
        <source>Write the settings as JSON for python/train_ddp.py</source>
        <translation>Write the settings as JSON for python/train_ddp.py</translation>
    </message>
    <message>
        <source>Imported %1: %2 layers, %3 heads of %4, width %5, context %6, %7 tokens. Its attention and generation are in the tabs; Continue trains it further on the loaded corpus; Save keeps it as a checkpoint.</source>
        <translation>Imported %1: %2 layers, %3 heads of %4, width %5, context %6, %7 tokens. Its attention and generation are in the tabs; Continue trains it further on the loaded corpus; Save keeps it as a checkpoint.</translation>
    </message>
    <message>
        <source>Stop training before importing a model.</source>
        <translation>Stop training before importing a model.</translation>
    </message>
    <message>
        <source>Import PyTorch model</source>
        <translation>Import PyTorch model</translation>
    </message>
    <message>
        <source>PyTorch state_dict (*.pt *.pth *.bin);;All files (*)</source>
        <translation>PyTorch state_dict (*.pt *.pth *.bin);;All files (*)</translation>
    </message>
    <message>
        <source>Vocabulary of the imported model</source>
        <translation>Vocabulary of the imported model</translation>
    </message>
    <message>
        <source>A state_dict holds numbers, not characters. Take the vocabulary from the text the model was trained on (&lt;|e|&gt; is 0, its sorted characters follow) or from a JSON vocabulary file.</source>
        <translation>A state_dict holds numbers, not characters. Take the vocabulary from the text the model was trained on (&lt;|e|&gt; is 0, its sorted characters follow) or from a JSON vocabulary file.</translation>
    </message>
    <message>
        <source>The loaded corpus (%1)</source>
        <translation>The loaded corpus (%1)</translation>
    </message>
    <message>
        <source>Corpus file…</source>
        <translation>Corpus file…</translation>
    </message>
    <message>
        <source>Corpus folder…</source>
        <translation>Corpus folder…</translation>
    </message>
    <message>
        <source>Vocabulary file…</source>
        <translation>Vocabulary file…</translation>
    </message>
    <message>
        <source>Corpus the model was trained on</source>
        <translation>Corpus the model was trained on</translation>
    </message>
    <message>
        <source>Vocabulary file</source>
        <translation>Vocabulary file</translation>
    </message>
    <message>
        <source>JSON vocabulary (*.json);;All files (*)</source>
        <translation>JSON vocabulary (*.json);;All files (*)</translation>
    </message>
    <message>
        <source>Could not export the settings to “%1”: %2</source>
        <translation>Could not export the settings to “%1”: %2</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>Wrote %1</translation>
    </message>
    <message>
        <source>Export settings for PyTorch</source>
        <translation>Export settings for PyTorch</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Language</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>&amp;About CharGPT Studio</source>
        <translation>&amp;About CharGPT Studio</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>About &amp;Qt</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>Open checkpoint</translation>
    </message>
    <message>
        <source>CharGPT checkpoints (*.pt);;All files (*)</source>
        <translation>CharGPT checkpoints (*.pt);;All files (*)</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>Opened %1</translation>
    </message>
    <message>
        <source>About CharGPT Studio</source>
        <translation>About CharGPT Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;CharGPT Studio %1&lt;/h3&gt;&lt;p&gt;Trains a small character-level GPT on your own text and shows how it learns.&lt;/p&gt;&lt;p&gt;Built with LibTorch, Qt and QCustomPlot.&lt;/p&gt;&lt;p&gt;Licensed under the GNU General Public License, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;CharGPT Studio %1&lt;/h3&gt;&lt;p&gt;Trains a small character-level GPT on your own text and shows how it learns.&lt;/p&gt;&lt;p&gt;Built with LibTorch, Qt and QCustomPlot.&lt;/p&gt;&lt;p&gt;Licensed under the GNU General Public License, version 3 or later.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Could not open the checkpoint “%1”: %2. The current model is unchanged.</source>
        <translation>Could not open the checkpoint “%1”: %2. The current model is unchanged.</translation>
    </message>
    <message>
        <source>Autosaved to %1</source>
        <translation>Autosaved to %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
    <message>
        <source>Could not save “%1”: %2</source>
        <translation>Could not save “%1”: %2</translation>
    </message>
    <message>
        <source>Open &amp;corpus file…</source>
        <translation>Open &amp;corpus file…</translation>
    </message>
    <message>
        <source>Train on a UTF-8 text file</source>
        <translation>Train on a UTF-8 text file</translation>
    </message>
    <message>
        <source>Open corpus &amp;folder…</source>
        <translation>Open corpus &amp;folder…</translation>
    </message>
    <message>
        <source>Train on every text file of a folder</source>
        <translation>Train on every text file of a folder</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Open &amp;recent</translation>
    </message>
    <message>
        <source>&amp;Save checkpoint</source>
        <translation>&amp;Save checkpoint</translation>
    </message>
    <message>
        <source>Save checkpoint &amp;as…</source>
        <translation>Save checkpoint &amp;as…</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>Softmax lab</source>
        <translation>Softmax lab</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>Generate</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>Training is running</translation>
    </message>
    <message>
        <source>Training is still running. Save the model before quitting?</source>
        <translation>Training is still running. Save the model before quitting?</translation>
    </message>
    <message>
        <source>It is autosaved to %1 either way.</source>
        <translation>It is autosaved to %1 either way.</translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation>Save checkpoint</translation>
    </message>
    <message>
        <source>CharGPT checkpoints (*.pt)</source>
        <translation>CharGPT checkpoints (*.pt)</translation>
    </message>
    <message>
        <source>Open corpus file</source>
        <translation>Open corpus file</translation>
    </message>
    <message>
        <source>Open corpus folder</source>
        <translation>Open corpus folder</translation>
    </message>
    <message>
        <source>Stop training before changing the corpus.</source>
        <translation>Stop training before changing the corpus.</translation>
    </message>
    <message>
        <source>Start is disabled: %1</source>
        <translation>Start is disabled: %1</translation>
    </message>
    <message>
        <source>Start is disabled until a corpus is loaded.</source>
        <translation>Start is disabled until a corpus is loaded.</translation>
    </message>
    <message>
        <source>The architecture settings changed.</source>
        <translation>The architecture settings changed.</translation>
    </message>
    <message>
        <source>Discard the trained model?</source>
        <translation>Discard the trained model?</translation>
    </message>
    <message>
        <source>%1 Training now starts a new model and discards the current one (step %2).</source>
        <translation>%1 Training now starts a new model and discards the current one (step %2).</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>Training failed: %1</translation>
    </message>
    <message>
        <source>Training stopped: %1</source>
        <translation>Training stopped: %1</translation>
    </message>
    <message>
        <source>Training stopped at step %1</source>
        <translation>Training stopped at step %1</translation>
    </message>
    <message>
        <source>Training finished at step %1</source>
        <translation>Training finished at step %1</translation>
    </message>
    <message>
        <source>Validation loss has risen since step %1 while training loss keeps falling: the model is memorising its training text instead of learning what carries over to new text. Restore best puts back the weights of step %2; fewer steps, more dropout or a larger text avoid it.</source>
        <translation>Validation loss has risen since step %1 while training loss keeps falling: the model is memorising its training text instead of learning what carries over to new text. Restore best puts back the weights of step %2; fewer steps, more dropout or a larger text avoid it.</translation>
    </message>
    <message>
        <source>Stop training before opening a checkpoint.</source>
        <translation>Stop training before opening a checkpoint.</translation>
    </message>
    <message>
        <source>Could not copy the model for the views: %1</source>
        <translation>Could not copy the model for the views: %1</translation>
    </message>
    <message>
        <source>From the live model</source>
        <translation>From the live model</translation>
    </message>
    <message>
        <source>No attention to show: %1</source>
        <translation>No attention to show: %1</translation>
    </message>
    <message>
        <source>No scores to show: %1</source>
        <translation>No scores to show: %1</translation>
    </message>
    <message>
        <source>Not in the model&apos;s vocabulary, left out of the prompt: %1</source>
        <translation>Not in the model&apos;s vocabulary, left out of the prompt: %1</translation>
    </message>
    <message>
        <source>Generation failed: %1</source>
        <translation>Generation failed: %1</translation>
    </message>
    <message>
        <source>The prompt has %1 characters; the model reads only its last %2.</source>
        <translation>The prompt has %1 characters; the model reads only its last %2.</translation>
    </message>
    <message>
        <source>There is no model yet: train one or open a checkpoint.</source>
        <translation>There is no model yet: train one or open a checkpoint.</translation>
    </message>
    <message>
        <source>The generation is over (end of text or length reached): change the prompt or a setting to start again.</source>
        <translation>The generation is over (end of text or length reached): change the prompt or a setting to start again.</translation>
    </message>
    <message>
        <source>Inside</source>
        <translation>Inside</translation>
    </message>
    <message>
        <source>Nothing to show inside the model: %1</source>
        <translation>Nothing to show inside the model: %1</translation>
    </message>
    <message>
        <source>No knock-out: %1</source>
        <translation>No knock-out: %1</translation>
    </message>
    <message>
        <source>Surprise</source>
        <translation>Surprise</translation>
    </message>
    <message>
        <source>No surprise to show: %1</source>
        <translation>No surprise to show: %1</translation>
    </message>
    <message>
        <source>Filmstrip</source>
        <translation>Filmstrip</translation>
    </message>
    <message>
        <source>Training the architecture ladder: rung %1 (%2), step %3 of %4. Start waits until it ends; Stop ends it.</source>
        <translation>Training the architecture ladder: rung %1 (%2), step %3 of %4. Start waits until it ends; Stop ends it.</translation>
    </message>
    <message>
        <source>The architecture ladder could not train: %1 The model in the window is unchanged.</source>
        <translation>The architecture ladder could not train: %1 The model in the window is unchanged.</translation>
    </message>
    <message>
        <source>The architecture ladder stopped: the rungs trained so far are kept in the Runs tab.</source>
        <translation>The architecture ladder stopped: the rungs trained so far are kept in the Runs tab.</translation>
    </message>
    <message>
        <source>The architecture ladder is trained: each rung is a run in the Runs tab.</source>
        <translation>The architecture ladder is trained: each rung is a run in the Runs tab.</translation>
    </message>
    <message>
        <source>Load a corpus first: the architecture ladder trains on the loaded corpus.</source>
        <translation>Load a corpus first: the architecture ladder trains on the loaded corpus.</translation>
    </message>
    <message>
        <source>The architecture ladder cannot start while a run trains: stop it first.</source>
        <translation>The architecture ladder cannot start while a run trains: stop it first.</translation>
    </message>
    <message>
        <source>Training the architecture ladder…</source>
        <translation>Training the architecture ladder…</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>&amp;Training</translation>
    </message>
    <message>
        <source>Train the Architecture &amp;Ladder</source>
        <translation>Train the Architecture &amp;Ladder</translation>
    </message>
    <message>
        <source>Trains each rung of the architecture ladder on the loaded corpus, records each as a run, and charts their best validation losses beside the floors.</source>
        <translation>Trains each rung of the architecture ladder on the loaded corpus, records each as a run, and charts their best validation losses beside the floors.</translation>
    </message>
    <message>
        <source>Ladder</source>
        <translation>Ladder</translation>
    </message>
    <message>
        <source>The current model (step %1) knows %2 characters. Keep it and train it further on “%3”, reading that text with the model&apos;s own characters (those it does not know are left out), or discard it and start a new model on the new text?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A discarded model is lost unless you save it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A discarded model stays in its file, %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the trained model?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text files (%1);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore a saved model with its optimizer and loss history, or open a model of nanoGPT, minGPT or the lecture&apos;s code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export model for &amp;nanoGPT…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write ckpt.pt and meta.pkl that nanoGPT&apos;s sample.py and train.py read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder for nanoGPT&apos;s ckpt.pt and meta.pkl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It computes unlike the book&apos;s CharGPT: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished">, </translation>
    </message>
    <message>
        <source>Wrote ckpt.pt and meta.pkl to %1. In nanoGPT, put meta.pkl in data/chargpt/; sample.py and train.py (init_from=&apos;resume&apos;) then read them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export the model to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the health plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>open a corpus first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate set to %1; the next run uses it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find a learning rate…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep a copy of the settings from a tiny to a large learning rate and suggest one. The model you train is not touched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No patching: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelBridge</name>
    <message>
        <source>emb_size must be positive (it is %1).</source>
        <translation>emb_size must be positive (it is %1).</translation>
    </message>
    <message>
        <source>head_size must be positive (it is %1).</source>
        <translation>head_size must be positive (it is %1).</translation>
    </message>
    <message>
        <source>n_layer must be positive (it is %1).</source>
        <translation>n_layer must be positive (it is %1).</translation>
    </message>
    <message>
        <source>sequence_len must be positive (it is %1).</source>
        <translation>sequence_len must be positive (it is %1).</translation>
    </message>
    <message>
        <source>batch_size must be positive (it is %1).</source>
        <translation>batch_size must be positive (it is %1).</translation>
    </message>
    <message>
        <source>eval_iters must be positive (it is %1).</source>
        <translation>eval_iters must be positive (it is %1).</translation>
    </message>
    <message>
        <source>eval_interval must be positive (it is %1).</source>
        <translation>eval_interval must be positive (it is %1).</translation>
    </message>
    <message>
        <source>learning rate must be a positive number.</source>
        <translation>learning rate must be a positive number.</translation>
    </message>
    <message>
        <source>emb_size (%1) must be divisible by head_size (%2).</source>
        <translation>emb_size (%1) must be divisible by head_size (%2).</translation>
    </message>
    <message>
        <source>vocab_size must be at least 2 (end-of-text and one character).</source>
        <translation>vocab_size must be at least 2 (end-of-text and one character).</translation>
    </message>
    <message>
        <source>sequence_len must be at least %1 (it is %2).</source>
        <translation>sequence_len must be at least %1 (it is %2).</translation>
    </message>
    <message>
        <source>the vocabulary has %1 entries; at most %2 are supported.</source>
        <translation>the vocabulary has %1 entries; at most %2 are supported.</translation>
    </message>
    <message>
        <source>dropout must be in [0, 1) (it is %1).</source>
        <translation>dropout must be in [0, 1) (it is %1).</translation>
    </message>
    <message>
        <source>the minimum learning rate must be between 0 and the learning rate.</source>
        <translation>the minimum learning rate must be between 0 and the learning rate.</translation>
    </message>
    <message>
        <source>AdamW betas must be in [0, 1).</source>
        <translation>AdamW betas must be in [0, 1).</translation>
    </message>
    <message>
        <source>the validation fraction must be between 0 and 1.</source>
        <translation>the validation fraction must be between 0 and 1.</translation>
    </message>
    <message>
        <source>weight decay must be zero or positive.</source>
        <translation>weight decay must be zero or positive.</translation>
    </message>
    <message>
        <source>gradient clipping must be zero (off) or positive.</source>
        <translation>gradient clipping must be zero (off) or positive.</translation>
    </message>
    <message>
        <source>warm-up steps must be zero or positive.</source>
        <translation>warm-up steps must be zero or positive.</translation>
    </message>
    <message>
        <source>the number of steps must be zero or positive.</source>
        <translation>the number of steps must be zero or positive.</translation>
    </message>
    <message>
        <source>the time limit must be zero (none) or a positive number of seconds.</source>
        <translation>the time limit must be zero (none) or a positive number of seconds.</translation>
    </message>
    <message>
        <source>set a number of steps or a time limit, or training would never end.</source>
        <translation>set a number of steps or a time limit, or training would never end.</translation>
    </message>
    <message>
        <source>training with these settings needs about %1 of memory and this machine has %2: lower the batch size, context length, width or number of layers.</source>
        <translation>training with these settings needs about %1 of memory and this machine has %2: lower the batch size, context length, width or number of layers.</translation>
    </message>
    <message>
        <source>threads must be zero (one per core) or positive.</source>
        <translation>threads must be zero (one per core) or positive.</translation>
    </message>
    <message>
        <source>the corpus has %1 characters; a context of %2 needs at least %3: lower the context length or choose a longer text.</source>
        <translation>the corpus has %1 characters; a context of %2 needs at least %3: lower the context length or choose a longer text.</translation>
    </message>
    <message>
        <source>python/train_ddp.py trains the whole CharGPT, and this model is a rung of the architecture ladder without some of its parts: its settings cannot be exported for it.</source>
        <translation>python/train_ddp.py trains the whole CharGPT, and this model is a rung of the architecture ladder without some of its parts: its settings cannot be exported for it.</translation>
    </message>
    <message>
        <source>a model without layers (n_layer 0) has no attention or feed-forward to switch off: scaled_attention, attention_projection, feed_forward and residual must stay on.</source>
        <translation>a model without layers (n_layer 0) has no attention or feed-forward to switch off: scaled_attention, attention_projection, feed_forward and residual must stay on.</translation>
    </message>
    <message>
        <source>it no longer holds the model of run %1: the run saved it at step %2, and it now holds a model at step %3, written there since.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it no longer holds the model of run %1: the run saved it at step %2, and it now holds a model at step %3 with other settings (%4), written there since.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1 saved its model to “%2” at step %3, and that file is gone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelConfig</name>
    <message>
        <source>tanh GELU feed-forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ReLU feed-forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown feed-forward activation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>biases on q, k and v</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no biases in the LayerNorms and linear layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head without bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head tied to the token embedding</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PatchingLab</name>
    <message>
        <source>The clean run&apos;s stream %1 at position %2 (&apos;%3&apos;) patched in restores %4% of the difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of the embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L%1 H%2&apos;s output at every position patched in restores %3% of the difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corpus&apos;s sample is too short for a preset: write the prompts yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The clean and the corrupted prompt must have the same number of characters (now %1 and %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompts have %1 characters; the model reads at most %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write one character as the target: the one the clean prompt should make the model write.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompts are the same: change a character of the corrupted one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation type="unfinished">embeddings</translation>
    </message>
    <message>
        <source>after L%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share of the clean logit difference restored (1 = all)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L%1</source>
        <translation type="unfinished">L%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation type="unfinished">H%1</translation>
    </message>
    <message>
        <source>Measured: logit of &apos;%1&apos; minus that of &apos;%2&apos; at the last position, %3 in the clean run and %4 in the corrupted one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Of the heads, L%1 H%2 restores most: %3%.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patching: %1 of %2 patches measured…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation patching: run a clean and a corrupted prompt of the same length, copy one part of the clean run into the corrupted run, and see how much of the clean logit difference comes back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clean prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corrupted prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target character:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished">Preset</translation>
    </message>
    <message>
        <source>A prompt from the corpus&apos;s sample and the same with one character changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished">Stop</translation>
    </message>
    <message>
        <source>The residual stream patched at one layer and position (columns: clean/corrupted character)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each head&apos;s output patched at every position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Besides the changed characters&apos; embeddings and the last layer&apos;s last position, which carry all of it by construction, position %1 (&apos;%2&apos;) %3 restores most: %4%.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer %1&apos;s feed-forward output at position %2 (&apos;%3&apos;) patched in restores %4% of the difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L%1 FF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Of the heads and feed-forwards, layer %1&apos;s feed-forward at position %2 (&apos;%3&apos;) restores most: %4%.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each feed-forward&apos;s output patched at one layer and position</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResidualStreamView</name>
    <message>
        <source>L%1 attention</source>
        <translation>L%1 attention</translation>
    </message>
    <message>
        <source>L%1 feed-forward</source>
        <translation>L%1 feed-forward</translation>
    </message>
    <message>
        <source>loss %1%2 without it</source>
        <translation>loss %1%2 without it</translation>
    </message>
    <message>
        <source>after the embeddings</source>
        <translation>after the embeddings</translation>
    </message>
    <message>
        <source>after block %1</source>
        <translation>after block %1</translation>
    </message>
    <message>
        <source>Position %1 (“%2”), %3: size %4</source>
        <translation>Position %1 (“%2”), %3: size %4</translation>
    </message>
    <message>
        <source>Position %1 (“%2”): %3 writes a vector of size %4</source>
        <translation>Position %1 (“%2”): %3 writes a vector of size %4</translation>
    </message>
    <message>
        <source>size of the residual stream</source>
        <translation>size of the residual stream</translation>
    </message>
    <message>
        <source>size of what is written</source>
        <translation>size of what is written</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>embeddings</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>block %1</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its residual stream.</source>
        <translation>Train a model or open a checkpoint to see its residual stream.</translation>
    </message>
    <message>
        <source>Percentages: each half&apos;s share of what its layer writes. Knock out each part to see what the loss becomes without it.</source>
        <translation>Percentages: each half&apos;s share of what its layer writes. Knock out each part to see what the loss becomes without it.</translation>
    </message>
    <message>
        <source>Percentages: each half&apos;s share of what its layer writes; the loss: the validation loss without that half (Knock-out tab, step %1).</source>
        <translation>Percentages: each half&apos;s share of what its layer writes; the loss: the validation loss without that half (Knock-out tab, step %1).</translation>
    </message>
    <message>
        <source>Every block reads the residual stream, a vector per character, and adds what its attention and its feed-forward write to it; nothing is overwritten. Top: how large the stream is after the embeddings and after each block (brighter: larger). Bottom: how much each part adds at each character; the part that writes more changes the stream more.</source>
        <translation>Every block reads the residual stream, a vector per character, and adds what its attention and its feed-forward write to it; nothing is overwritten. Top: how large the stream is after the embeddings and after each block (brighter: larger). Bottom: how much each part adds at each character; the part that writes more changes the stream more.</translation>
    </message>
    <message>
        <source>The stream&apos;s size</source>
        <translation>The stream&apos;s size</translation>
    </message>
    <message>
        <source>What each part writes</source>
        <translation>What each part writes</translation>
    </message>
    <message>
        <source>Knock out each part</source>
        <translation>Knock out each part</translation>
    </message>
    <message>
        <source>Export the residual stream</source>
        <translation>Export the residual stream</translation>
    </message>
    <message>
        <source>The residual stream</source>
        <translation>The residual stream</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save both grids as a PNG or SVG picture, or every value as a CSV table</source>
        <translation>Save both grids as a PNG or SVG picture, or every value as a CSV table</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <extracomment>A layer&apos;s half, then in brackets its notes (its share of what the layer writes, the loss without it), joined by the separator below</extracomment>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between a layer&apos;s notes</comment>
        <translation>, </translation>
    </message>
</context>
<context>
    <name>RunFields</name>
    <message>
        <source>Vocabulary size</source>
        <translation>Vocabulary size</translation>
    </message>
    <message>
        <source>Embedding width</source>
        <translation>Embedding width</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>Head size</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Layers</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>Context length</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>Weight decay</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batch size</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Learning rate</translation>
    </message>
    <message>
        <source>Lowest learning rate</source>
        <translation>Lowest learning rate</translation>
    </message>
    <message>
        <source>AdamW beta1</source>
        <translation>AdamW beta1</translation>
    </message>
    <message>
        <source>AdamW beta2</source>
        <translation>AdamW beta2</translation>
    </message>
    <message>
        <source>Gradient clipping</source>
        <translation>Gradient clipping</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>Warm-up steps</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Steps</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Time limit</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>Evaluation interval</source>
        <translation>Evaluation interval</translation>
    </message>
    <message>
        <source>Evaluation batches</source>
        <translation>Evaluation batches</translation>
    </message>
    <message>
        <source>Validation fraction</source>
        <translation>Validation fraction</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precision</translation>
    </message>
    <message>
        <source>Position embeddings</source>
        <translation>Position embeddings</translation>
    </message>
    <message>
        <source>Scaled attention</source>
        <translation>Scaled attention</translation>
    </message>
    <message>
        <source>Attention projection</source>
        <translation>Attention projection</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>Feed-forward</translation>
    </message>
    <message>
        <source>Residual connections</source>
        <translation>Residual connections</translation>
    </message>
    <message>
        <source>Final LayerNorm</source>
        <translation>Final LayerNorm</translation>
    </message>
    <message>
        <source>Feed-forward activation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Biases on q, k and v</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Biases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head tied to the token embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width of the token vectors (emb_size)</source>
        <translation type="unfinished">Width of the token vectors (emb_size)</translation>
    </message>
    <message>
        <source>Width of one attention head (head_size); the width must be a multiple of it</source>
        <translation type="unfinished">Width of one attention head (head_size); the width must be a multiple of it</translation>
    </message>
    <message>
        <source>Transformer blocks, one after the other (n_layer); 0 makes a bigram model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Characters the model reads at once to predict the next (sequence_len)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The share of activations dropped while training, 0 for none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How hard AdamW pulls the weight matrices towards zero at each step; more of it keeps a model trained on a small text from memorising it</source>
        <translation type="unfinished">How hard AdamW pulls the weight matrices towards zero at each step; more of it keeps a model trained on a small text from memorising it</translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak learning rate, reached after the warm-up; a cosine decay then lowers it towards the lowest learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps over which the learning rate rises to its peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total steps of the model&apos;s training; 0 for no limit (set a time limit then). A model that already reached it trains this many more.</source>
        <translation type="unfinished">Total steps of the model&apos;s training; 0 for no limit (set a time limit then). A model that already reached it trains this many more.</translation>
    </message>
    <message>
        <source>Batches of each split per evaluation; fewer are faster and noisier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random seed of the first weights and of the batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds after which training stops, 0 for none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsCompare</name>
    <message>
        <source>run %1 · %2</source>
        <translation>run %1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>runs %1 · %2 · %n seeds: mean, lowest to highest</source>
        <translation>
            <numerusform>runs %1 · %2 · %n seed: mean, lowest to highest</numerusform>
            <numerusform>runs %1 · %2 · %n seeds: mean, lowest to highest</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>run %1</translation>
    </message>
    <message>
        <source>Tick runs in the list to compare them.</source>
        <translation>Tick runs in the list to compare them.</translation>
    </message>
    <message>
        <source>Tick another run to compare its settings and curves with this one.</source>
        <translation>Tick another run to compare its settings and curves with this one.</translation>
    </message>
    <message>
        <source>These runs have the same settings and corpus.</source>
        <translation>These runs have the same settings and corpus.</translation>
    </message>
    <message>
        <source>What differs between these runs:</source>
        <translation>What differs between these runs:</translation>
    </message>
    <message>
        <source>Against:</source>
        <translation>Against:</translation>
    </message>
    <message>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <source>tokens seen</source>
        <translation>tokens seen</translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation>training time (s)</translation>
    </message>
    <message>
        <source>Training loss (dashed)</source>
        <translation>Training loss (dashed)</translation>
    </message>
    <message>
        <source>Tick runs in the list to draw them here.</source>
        <translation>Tick runs in the list to draw them here.</translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation type="unfinished">Corpus</translation>
    </message>
</context>
<context>
    <name>RunsHealthCompare</name>
    <message>
        <source>run %1</source>
        <translation type="unfinished">run %1</translation>
    </message>
    <message>
        <source>run %1 · %2</source>
        <translation type="unfinished">run %1 · %2</translation>
    </message>
    <message>
        <source>No health kept for %1 (trained before it was measured, or with chargpt train).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training health of the compared runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>update / weight (median)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished">step</translation>
    </message>
    <message>
        <source>update / weight
(median)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>update / weight</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsList</name>
    <message>
        <source>%1, steps %2 to %3</source>
        <translation>%1, steps %2 to %3</translation>
    </message>
    <message>
        <source>no end (training, or killed)</source>
        <translation>no end (training, or killed)</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>finished</translation>
    </message>
    <message>
        <source>time limit</source>
        <translation>time limit</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stopped</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>diverged</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>Delete run</translation>
    </message>
    <message>
        <source>Run %1, from %2. Double-click to rename.</source>
        <translation>Run %1, from %2. Double-click to rename.</translation>
    </message>
    <message>
        <source>chargpt train</source>
        <translation>chargpt train</translation>
    </message>
    <message>
        <source>the app</source>
        <translation>the app</translation>
    </message>
    <message>
        <source>%1 bytes, fingerprint %2</source>
        <translation>%1 bytes, fingerprint %2</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 parameters</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1 (step %2)</translation>
    </message>
    <message>
        <source>%1, %2 steps</source>
        <translation>%1, %2 steps</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n run</numerusform>
            <numerusform>%n runs</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete the run “%1” (%2 steps) from the run library? Its curves are lost; its checkpoints stay on disk.</source>
        <translation>Delete the run “%1” (%2 steps) from the run library? Its curves are lost; its checkpoints stay on disk.</translation>
    </message>
    <message>
        <source>This run wrote no checkpoint.</source>
        <translation>This run wrote no checkpoint.</translation>
    </message>
    <message>
        <source>Opens %1 and trains it further.</source>
        <translation>Opens %1 and trains it further.</translation>
    </message>
    <message>
        <source>Filter by name, corpus, preset or settings</source>
        <translation>Filter by name, corpus, preset or settings</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Preset</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Settings</translation>
    </message>
    <message>
        <source>Best validation</source>
        <translation>Best validation</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Started</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Length</translation>
    </message>
    <message>
        <source>End</source>
        <translation>End</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>Open checkpoint</translation>
    </message>
    <message>
        <source>Continue training</source>
        <translation>Continue training</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Delete…</translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsPage</name>
    <message>
        <source>Every training run, from this window or from chargpt train, is kept here with its settings and curves. Tick runs to compare them: runs that differ only in their seed are drawn as their mean with a band from the lowest to the highest.</source>
        <translation>Every training run, from this window or from chargpt train, is kept here with its settings and curves. Tick runs to compare them: runs that differ only in their seed are drawn as their mean with a band from the lowest to the highest.</translation>
    </message>
    <message>
        <source>There is no data folder, so runs are not kept.</source>
        <translation>There is no data folder, so runs are not kept.</translation>
    </message>
    <message>
        <source>The run library: %1</source>
        <translation>The run library: %1</translation>
    </message>
    <message>
        <source>The run library cannot be used: %1</source>
        <translation>The run library cannot be used: %1</translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <source>Model and training</source>
        <translation>Model and training</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>Preset:</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1:</translation>
    </message>
    <message>
        <source>bfloat16 matrix products</source>
        <translation>bfloat16 matrix products</translation>
    </message>
    <message>
        <source>Matrix products in bfloat16 while weights and optimizer stay float32: about twice the training speed on CPUs with AVX-512 BF16 or AMX</source>
        <translation>Matrix products in bfloat16 while weights and optimizer stay float32: about twice the training speed on CPUs with AVX-512 BF16 or AMX</translation>
    </message>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>one per core</source>
        <translation>one per core</translation>
    </message>
    <message>
        <source>Takes effect at the next start of the program</source>
        <translation>Takes effect at the next start of the program</translation>
    </message>
    <message numerus="yes">
        <source>= %n attention head(s)</source>
        <translation>
            <numerusform>= %n attention head</numerusform>
            <numerusform>= %n attention heads</numerusform>
        </translation>
    </message>
    <message>
        <source>= no whole number of heads</source>
        <translation>= no whole number of heads</translation>
    </message>
    <message>
        <source>Parameters: %1 · estimated memory: %2</source>
        <translation>Parameters: %1 · estimated memory: %2</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Cannot start: %1</translation>
    </message>
    <message>
        <source>≈ %1 passes over the training text</source>
        <translation>≈ %1 passes over the training text</translation>
    </message>
    <message>
        <source>Steps × batch size × context length ÷ the %1 characters of the training text: how many times the run reads each of them</source>
        <translation>Steps × batch size × context length ÷ the %1 characters of the training text: how many times the run reads each of them</translation>
    </message>
    <message>
        <source>This run would read each training character about %1 times: it will memorise the text instead of learning from it. Use fewer steps or a larger text.</source>
        <translation>This run would read each training character about %1 times: it will memorise the text instead of learning from it. Use fewer steps or a larger text.</translation>
    </message>
    <message>
        <source>%1 (from %2 to %3; default %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the preset&apos;s, %1 in fast</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SoftmaxLab</name>
    <message>
        <source>Mask</source>
        <translation>Mask</translation>
    </message>
    <message>
        <source>Variance</source>
        <translation>Variance</translation>
    </message>
    <message>
        <source>A decoder may not look ahead: the scores of later positions are set to -inf before the softmax. Their weights come out exactly 0 and each row still sums to 1. Edit a score to see its row change.</source>
        <translation>A decoder may not look ahead: the scores of later positions are set to -inf before the softmax. Their weights come out exactly 0 and each row still sums to 1. Edit a score to see its row change.</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>Size:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>Draw new scores</source>
        <translation>Draw new scores</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>Causal mask</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>Temperature:</translation>
    </message>
    <message>
        <source>Scores (editable)</source>
        <translation>Scores (editable)</translation>
    </message>
    <message>
        <source>softmax of each row (last column: row sum)</source>
        <translation>softmax of each row (last column: row sum)</translation>
    </message>
    <message>
        <source>Q and K are drawn from N(0, 1). Each score Q·K is a sum of H products, so its spread grows like √H; softmax of widely spread scores is nearly one-hot and its gradients vanish. Dividing by √H brings the spread back to about 1.</source>
        <translation>Q and K are drawn from N(0, 1). Each score Q·K is a sum of H products, so its spread grows like √H; softmax of widely spread scores is nearly one-hot and its gradients vanish. Dividing by √H brings the spread back to about 1.</translation>
    </message>
    <message>
        <source>Batch B:</source>
        <translation>Batch B:</translation>
    </message>
    <message>
        <source>Sequence T:</source>
        <translation>Sequence T:</translation>
    </message>
    <message>
        <source>Head size H:</source>
        <translation>Head size H:</translation>
    </message>
    <message>
        <source>Multiplier m:</source>
        <translation>Multiplier m:</translation>
    </message>
    <message>
        <source>Q·Kᵀ</source>
        <translation>Q·Kᵀ</translation>
    </message>
    <message>
        <source>Q·Kᵀ / √H</source>
        <translation>Q·Kᵀ / √H</translation>
    </message>
    <message>
        <source>score</source>
        <translation>score</translation>
    </message>
    <message>
        <source>share of scores</source>
        <translation>share of scores</translation>
    </message>
    <message>
        <source>softmax(x)</source>
        <translation>softmax(x)</translation>
    </message>
    <message>
        <source>softmax(m · x)</source>
        <translation>softmax(m · x)</translation>
    </message>
    <message>
        <source>x (%1 values drawn from N(0, 1))</source>
        <translation>x (%1 values drawn from N(0, 1))</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>weight</translation>
    </message>
    <message>
        <source>Masked scores (-inf above the diagonal)</source>
        <translation>Masked scores (-inf above the diagonal)</translation>
    </message>
    <message>
        <source>Scores, no mask</source>
        <translation>Scores, no mask</translation>
    </message>
    <message>
        <source>The seed&apos;s example: %1</source>
        <translation>The seed&apos;s example: %1</translation>
    </message>
    <message>
        <source>std(Q·Kᵀ) = &lt;b&gt;%1&lt;/b&gt; (√H = %2) &amp;nbsp;&amp;nbsp; std(Q·Kᵀ / √H) = &lt;b&gt;%3&lt;/b&gt;</source>
        <translation>std(Q·Kᵀ) = &lt;b&gt;%1&lt;/b&gt; (√H = %2) &amp;nbsp;&amp;nbsp; std(Q·Kᵀ / √H) = &lt;b&gt;%3&lt;/b&gt;</translation>
    </message>
    <message>
        <source>m = %1: largest weight %2</source>
        <translation>m = %1: largest weight %2</translation>
    </message>
</context>
<context>
    <name>SurpriseView</name>
    <message>
        <source>↵ (newline)</source>
        <translation>↵ (newline)</translation>
    </message>
    <message>
        <source>␣ (space)</source>
        <translation>␣ (space)</translation>
    </message>
    <message>
        <source>⇥ (tab)</source>
        <translation>⇥ (tab)</translation>
    </message>
    <message>
        <source>end of text</source>
        <translation>end of text</translation>
    </message>
    <message>
        <source>%1 is not in the model&apos;s vocabulary: left out of what the model read.</source>
        <translation>%1 is not in the model&apos;s vocabulary: left out of what the model read.</translation>
    </message>
    <message>
        <source>%1 is the first character: nothing before it to guess it from.</source>
        <translation>%1 is the first character: nothing before it to guess it from.</translation>
    </message>
    <message>
        <source>%1: %2 bits (the model gave it %3)</source>
        <translation>%1: %2 bits (the model gave it %3)</translation>
    </message>
    <message>
        <source>The model&apos;s first guess.</source>
        <translation>The model&apos;s first guess.</translation>
    </message>
    <message>
        <source>Rank %1 among the model&apos;s guesses.</source>
        <translation>Rank %1 among the model&apos;s guesses.</translation>
    </message>
    <message>
        <source>Its guesses:</source>
        <translation>Its guesses:</translation>
    </message>
    <message>
        <source>Each character is coloured by how surprised the model was to see it after the characters before it: dark = expected, bright = surprising (in bits, −log₂ p). Hover a character for the model&apos;s guesses.</source>
        <translation>Each character is coloured by how surprised the model was to see it after the characters before it: dark = expected, bright = surprising (in bits, −log₂ p). Hover a character for the model&apos;s guesses.</translation>
    </message>
    <message>
        <source>%1 bits per character</source>
        <translation>%1 bits per character</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 bits per character over %n character(s)</source>
        <translation>
            <numerusform>%1 bits per character over one character</numerusform>
            <numerusform>%1 bits per character over %n characters</numerusform>
        </translation>
    </message>
    <message>
        <source>too short to score: it needs two characters the model knows</source>
        <translation>too short to score: it needs two characters the model knows</translation>
    </message>
    <message numerus="yes">
        <source>%n not in the vocabulary, left out</source>
        <translation>
            <numerusform>one not in the vocabulary, left out</numerusform>
            <numerusform>%n not in the vocabulary, left out</numerusform>
        </translation>
    </message>
    <message>
        <source>%1+ bits</source>
        <translation>%1+ bits</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png, .svg, .html or .csv.</source>
        <translation>Choose a file name ending in .png, .svg, .html or .csv.</translation>
    </message>
    <message>
        <source>Colour: bits of surprise, dark = expected, bright = surprising; grey: not scored</source>
        <translation>Colour: bits of surprise, dark = expected, bright = surprising; grey: not scored</translation>
    </message>
    <message>
        <source>Validation text (never trained on)</source>
        <translation>Validation text (never trained on)</translation>
    </message>
    <message>
        <source>Training text (what the model learns from)</source>
        <translation>Training text (what the model learns from)</translation>
    </message>
    <message>
        <source>Your text</source>
        <translation>Your text</translation>
    </message>
    <message>
        <source>Surprise at step %1</source>
        <translation>Surprise at step %1</translation>
    </message>
    <message>
        <source>Surprise</source>
        <translation>Surprise</translation>
    </message>
    <message>
        <source>Export the Surprise view</source>
        <translation>Export the Surprise view</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;HTML page (*.html);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;HTML page (*.html);;CSV table (*.csv)</translation>
    </message>
    <message>
        <source>Load a corpus: the start of its validation part is shown here.</source>
        <translation>Load a corpus: the start of its validation part is shown here.</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to score this text.</source>
        <translation>Train a model or open a checkpoint to score this text.</translation>
    </message>
    <message>
        <source>Load a corpus: as much of its training part is shown here.</source>
        <translation>Load a corpus: as much of its training part is shown here.</translation>
    </message>
    <message>
        <source>Type or paste a text above to see how the model reads it.</source>
        <translation>Type or paste a text above to see how the model reads it.</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its surprise. During training this view follows the model at every snapshot while it is shown.</source>
        <translation>Train a model or open a checkpoint to see its surprise. During training this view follows the model at every snapshot while it is shown.</translation>
    </message>
    <message>
        <source>Step %1: validation %2 bits per character, training %3.</source>
        <translation>Step %1: validation %2 bits per character, training %3.</translation>
    </message>
    <message>
        <source>The validation text is much brighter than the training text: the model has memorised its training text more than it learned to predict text it has not seen.</source>
        <translation>The validation text is much brighter than the training text: the model has memorised its training text more than it learned to predict text it has not seen.</translation>
    </message>
    <message>
        <source>Only the first %1 characters of your text are scored.</source>
        <translation>Only the first %1 characters of your text are scored.</translation>
    </message>
    <message>
        <source>Each character is coloured by how surprised the model was to see it after the characters before it: dark = expected, bright = surprising, measured in bits (−log₂ of the probability the model gave it). A model that memorises its training text shows a dark training pane beside a bright validation pane. Hover a character for the model&apos;s five guesses.</source>
        <translation>Each character is coloured by how surprised the model was to see it after the characters before it: dark = expected, bright = surprising, measured in bits (−log₂ of the probability the model gave it). A model that memorises its training text shows a dark training pane beside a bright validation pane. Hover a character for the model&apos;s five guesses.</translation>
    </message>
    <message>
        <source>Bits:</source>
        <translation>Bits:</translation>
    </message>
    <message>
        <source>0 bits: the model was sure of the character; the right end is the surprise of a uniform guess over the vocabulary</source>
        <translation>0 bits: the model was sure of the character; the right end is the surprise of a uniform guess over the vocabulary</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the panes as a PNG or SVG picture, an HTML page or a CSV table</source>
        <translation>Save the panes as a PNG or SVG picture, an HTML page or a CSV table</translation>
    </message>
    <message>
        <source>Your text:</source>
        <translation>Your text:</translation>
    </message>
    <message>
        <source>Type or paste any text to score it with the model</source>
        <translation>Type or paste any text to score it with the model</translation>
    </message>
    <message>
        <source>The mean surprise of the two texts at each step shown so far; the dashed line is the step the timeline below the tabs chose</source>
        <translation>The mean surprise of the two texts at each step shown so far; the dashed line is the step the timeline below the tabs chose</translation>
    </message>
    <message>
        <source>validation, bits per character</source>
        <translation>validation, bits per character</translation>
    </message>
    <message>
        <source>training, bits per character</source>
        <translation>training, bits per character</translation>
    </message>
    <message>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <source>Without %1: %2 bits (%3)</source>
        <translation>Without %1: %2 bits (%3)</translation>
    </message>
    <message>
        <source>without %1: %2 (%3)</source>
        <translation>without %1: %2 (%3)</translation>
    </message>
    <message>
        <source>%1%2 bits</source>
        <translation>%1%2 bits</translation>
    </message>
    <message>
        <source>Colour: how many more bits the model needs without %1. Red: that part helped it read this character; blue: it reads it better without; white: no difference.</source>
        <translation>Colour: how many more bits the model needs without %1. Red: that part helped it read this character; blue: it reads it better without; white: no difference.</translation>
    </message>
    <message>
        <source>%1 bits</source>
        <translation>%1 bits</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nothing</translation>
    </message>
    <message>
        <source>Compare without:</source>
        <translation>Compare without:</translation>
    </message>
    <message>
        <source>Score the texts again with this part of the model knocked out (its output set to zero) and colour each character by how many more bits the model needs without it</source>
        <translation>Score the texts again with this part of the model knocked out (its output set to zero) and colour each character by how many more bits the model needs without it</translation>
    </message>
    <message>
        <source>Bits more without %1:</source>
        <translation>Bits more without %1:</translation>
    </message>
    <message>
        <source>The picture would be %1 x %2 pixels; a picture is at most %3 pixels tall. Export a shorter text, or as HTML or CSV.</source>
        <translation>The picture would be %1 x %2 pixels; a picture is at most %3 pixels tall. Export a shorter text, or as HTML or CSV.</translation>
    </message>
    <message>
        <source>at step %1: %2 (%3)</source>
        <translation>at step %1: %2 (%3)</translation>
    </message>
    <message>
        <source>At step %1: %2 bits (%3)</source>
        <translation>At step %1: %2 bits (%3)</translation>
    </message>
    <message>
        <source>Colour: how many more bits the model needed at step %1 than at step %2. Red: learned in between; blue: it read this character better then; white: no change.</source>
        <translation>Colour: how many more bits the model needed at step %1 than at step %2. Red: learned in between; blue: it read this character better then; white: no change.</translation>
    </message>
    <message>
        <source>Bits more at step %1:</source>
        <translation>Bits more at step %1:</translation>
    </message>
    <message>
        <source>Click one to see why the model wrote it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineControls</name>
    <message>
        <source>Timeline:</source>
        <translation>Timeline:</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Play</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>Speed:</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>no snapshot yet</translation>
    </message>
    <message>
        <source>step %1 (%2 of %3)</source>
        <translation>step %1 (%2 of %3)</translation>
    </message>
    <message>
        <source>run %1, %2</source>
        <translation>run %1, %2</translation>
    </message>
    <message>
        <source>%1, newest</source>
        <translation>%1, newest</translation>
    </message>
    <message>
        <source>The step every view shows. At the right end it follows the newest step while the model trains; anywhere else the views recompute at that step from the weights the run library keeps.</source>
        <translation>The step every view shows. At the right end it follows the newest step while the model trains; anywhere else the views recompute at that step from the weights the run library keeps.</translation>
    </message>
    <message>
        <source>A: step %1</source>
        <translation>A: step %1</translation>
    </message>
    <message>
        <source>The Surprise tab colours each character by what the model learned between step %1 (A) and the step shown. Click to stop comparing.</source>
        <translation>The Surprise tab colours each character by what the model learned between step %1 (A) and the step shown. Click to stop comparing.</translation>
    </message>
    <message>
        <source>Mark A</source>
        <translation>Mark A</translation>
    </message>
    <message>
        <source>Mark the step shown as A, then move the timeline: the Surprise tab colours each character by what the model learned between A and the step shown. Only steps whose weights the run keeps can be marked.</source>
        <translation>Mark the step shown as A, then move the timeline: the Surprise tab colours each character by what the model learned between A and the step shown. Only steps whose weights the run keeps can be marked.</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Train the model on the corpus with these settings</source>
        <translation>Train the model on the corpus with these settings</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>End the run (the model is kept and autosaved)</source>
        <translation>End the run (the model is kept and autosaved)</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Reset</translation>
    </message>
    <message>
        <source>Forget the trained model and start again from random weights</source>
        <translation>Forget the trained model and start again from random weights</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continue</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Ready (model at step %1)</source>
        <translation>Ready (model at step %1)</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Ready</translation>
    </message>
    <message>
        <source>Preparing the data…</source>
        <translation>Preparing the data…</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>Training…</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Paused</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Stopping…</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>no run yet</translation>
    </message>
    <message>
        <source>step %1 / %2</source>
        <translation>step %1 / %2</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <source>loss %1 · validation %2
%3 tokens/s · elapsed %4 · ETA %5</source>
        <translation>loss %1 · validation %2
%3 tokens/s · elapsed %4 · ETA %5</translation>
    </message>
    <message>
        <source>Restore best</source>
        <translation>Restore best</translation>
    </message>
    <message>
        <source>Puts back the weights of the evaluation with the lowest validation loss: none yet</source>
        <translation>Puts back the weights of the evaluation with the lowest validation loss: none yet</translation>
    </message>
    <message>
        <source>Put back the weights of step %1, where validation loss was lowest (%2)</source>
        <translation>Put back the weights of step %1, where validation loss was lowest (%2)</translation>
    </message>
    <message>
        <source>The weights are those of step %1, where validation loss was lowest (%2)</source>
        <translation>The weights are those of step %1, where validation loss was lowest (%2)</translation>
    </message>
    <message>
        <source>%1 · epoch %2</source>
        <translation>%1 · epoch %2</translation>
    </message>
    <message>
        <source>model at step %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ViewExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png or .svg.</source>
        <translation>Choose a file name ending in .png or .svg.</translation>
    </message>
    <message>
        <source>There is nothing to draw yet.</source>
        <translation>There is nothing to draw yet.</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png, .svg or .csv.</source>
        <translation>Choose a file name ending in .png, .svg or .csv.</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;CSV table (*.csv)</source>
        <translation>PNG image (*.png);;SVG image (*.svg);;CSV table (*.csv)</translation>
    </message>
    <message>
        <source>This picture would be %1 x %2 pixels; a picture is at most %3 pixels a side: show fewer characters.</source>
        <translation>This picture would be %1 x %2 pixels; a picture is at most %3 pixels a side: show fewer characters.</translation>
    </message>
    <message>
        <source>Unknown file type “%1”: use .png, .svg, .pdf or .csv.</source>
        <translation type="unfinished">Unknown file type “%1”: use .png, .svg, .pdf or .csv.</translation>
    </message>
</context>
<context>
    <name>WhyWindow</name>
    <message>
        <source>Why this character?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Across the kept steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patching lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation patching lab…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Train a character-level GPT and watch it learn.</source>
        <translation>Train a character-level GPT and watch it learn.</translation>
    </message>
    <message>
        <source>A checkpoint (.pt) to open.</source>
        <translation>A checkpoint (.pt) to open.</translation>
    </message>
    <message>
        <source>Train the built-in corpus for SECONDS, print the longest stall of the window&apos;s thread as JSON and quit (a benchmark).</source>
        <translation>Train the built-in corpus for SECONDS, print the longest stall of the window&apos;s thread as JSON and quit (a benchmark).</translation>
    </message>
    <message>
        <source>With --measure-stall: train without the views following the model, to measure what they cost (a benchmark).</source>
        <translation>With --measure-stall: train without the views following the model, to measure what they cost (a benchmark).</translation>
    </message>
    <message>
        <source>Open the newest run of the run library that wrote a checkpoint, move the timeline to each step it keeps, print how long the Attention tab took to show each as JSON and quit (a benchmark).</source>
        <translation>Open the newest run of the run library that wrote a checkpoint, move the timeline to each step it keeps, print how long the Attention tab took to show each as JSON and quit (a benchmark).</translation>
    </message>
</context>
</TS>
