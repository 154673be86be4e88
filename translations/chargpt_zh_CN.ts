<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttentionData</name>
    <message>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>Mean distance</source>
        <translation>平均距离</translation>
    </message>
    <message>
        <source>Previous-character share</source>
        <translation>前一字符占比</translation>
    </message>
    <message>
        <source>Line-start share</source>
        <translation>行首占比</translation>
    </message>
    <message>
        <source>ent</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>dist</source>
        <translation>距离</translation>
    </message>
    <message>
        <source>prev</source>
        <translation>前字</translation>
    </message>
    <message>
        <source>start</source>
        <translation>行首</translation>
    </message>
</context>
<context>
    <name>AttentionGrid</name>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 个头</translation>
    </message>
    <message>
        <source>Export attention</source>
        <translation>导出注意力</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Sort heads by:</source>
        <translation>注意力头排序依据：</translation>
    </message>
    <message>
        <source>Largest first</source>
        <translation>从大到小</translation>
    </message>
    <message>
        <source>Export layer…</source>
        <translation>导出该层…</translation>
    </message>
    <message>
        <source>Head number</source>
        <translation>头编号</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>第 %1 个头</translation>
    </message>
    <message>
        <source>Attention of layer %1</source>
        <translation>第 %1 层的注意力</translation>
    </message>
    <message>
        <source>rows: queries, columns: keys · weight 0 dark purple to 1 yellow · hatched grey: masked</source>
        <translation>行：查询，列：键 · 权重 0 为深紫色，1 为黄色 · 灰色斜线：被遮蔽</translation>
    </message>
    <message>
        <source>Head %1 · moved %2 since step %3</source>
        <translation>第 %1 个头 · 自第 %3 步以来移动了 %2</translation>
    </message>
</context>
<context>
    <name>AttentionHeadDialog</name>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
</context>
<context>
    <name>AttentionHeatmap</name>
    <message>
        <source>query &apos;%1&apos; (pos %2) → key &apos;%3&apos; (pos %4): masked (a later position)</source>
        <translation>查询“%1”（位置 %2）→ 键“%3”（位置 %4）：被遮蔽（位于之后的位置）</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (pos %2) → key &apos;%3&apos; (pos %4): weight %5</source>
        <translation>查询“%1”（位置 %2）→ 键“%3”（位置 %4）：权重 %5</translation>
    </message>
</context>
<context>
    <name>AttentionOverview</name>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Heatmaps</source>
        <translation>热图</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>层%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>Colour from %1 (dark) to %2 (yellow)</source>
        <translation>颜色从 %1（深色）到 %2（黄色）</translation>
    </message>
</context>
<context>
    <name>AttentionPage</name>
    <message>
        <source>Step %1: %2 characters, computed in %3 ms on the inspector thread.</source>
        <translation>第 %1 步：%2 个字符，在检查线程上用时 %3 毫秒。</translation>
    </message>
    <message>
        <source>Left out (not in the vocabulary): %1</source>
        <translation>已略去（不在词表中）：%1</translation>
    </message>
    <message numerus="yes">
        <source>The first %n character(s) were cropped to fit the context.</source>
        <translation>
            <numerusform>开头的 %n 个字符被裁掉，以适应上下文长度。</numerusform>
        </translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>探测文本：</translation>
    </message>
    <message>
        <source>A text to run through the model</source>
        <translation>送入模型的一段文本</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Run the probe through the latest snapshot of the model</source>
        <translation>用模型的最新快照重新计算探测文本</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its attention. During training the heatmaps follow the model after every evaluation.</source>
        <translation>训练一个模型或打开检查点即可查看它的注意力。训练期间，每次评估之后热图都会随模型更新。</translation>
    </message>
</context>
<context>
    <name>AttributionExport</name>
    <message>
        <source>There is no attribution to export yet: click a character first.</source>
        <translation>还没有可导出的归因：请先点击一个字符。</translation>
    </message>
    <message>
        <source>Unknown file type “%1”: use .png, .svg, .csv or .json.</source>
        <translation>未知的文件类型“%1”：请用 .png、.svg、.csv 或 .json。</translation>
    </message>
</context>
<context>
    <name>AttributionHistoryView</name>
    <message>
        <source>Nothing across the kept steps: %1</source>
        <translation>各保存步没有结果：%1</translation>
    </message>
    <message>
        <source>Across the kept steps: click a character while the timeline shows a run whose weights are kept at two steps or more.</source>
        <translation>各保存步：当时间线显示的运行在两个或更多步保存了权重时，点击一个字符。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; across %2 kept steps, %3 to %4: its logit went from %5 to %6.</source>
        <translation>“%1”在 %2 个保存步（从第 %3 步到第 %4 步）上：它的 logit 从 %5 变到 %6。</translation>
    </message>
    <message>
        <source>%1&apos;s share grew most, from %2 to %3.</source>
        <translation>%1 的份额增长最多，从 %2 增到 %3。</translation>
    </message>
    <message>
        <source>logit of &apos;%1&apos;</source>
        <translation>“%1”的 logit</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>share of the logit</source>
        <translation>在 logit 中的份额</translation>
    </message>
    <message>
        <source>part</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>A (step %1)</source>
        <translation>A（第 %1 步）</translation>
    </message>
    <message>
        <source>B (step %1)</source>
        <translation>B（第 %1 步）</translation>
    </message>
    <message>
        <source>B - A</source>
        <translation>B - A</translation>
    </message>
    <message>
        <source>What changed between A and B: nothing, they are the same kept step (%1).</source>
        <translation>A 与 B 之间的变化：没有，它们是同一个保存的步（%1）。</translation>
    </message>
    <message>
        <source>What changed between A and B: each part&apos;s share of the logit at the kept steps measured nearest to the marks, largest change first.</source>
        <translation>A 与 B 之间的变化：在离两个标记最近的已测保存步上，每个部件占 logit 的份额，变化最大的排在前面。</translation>
    </message>
    <message>
        <source>Measuring the attribution at each kept step…</source>
        <translation>正在为每个保存的步计算归因…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop measuring the kept steps</source>
        <translation>停止计算各保存步</translation>
    </message>
</context>
<context>
    <name>AttributionView</name>
    <message>
        <source>L%1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>token embedding</source>
        <translation>词元嵌入</translation>
    </message>
    <message>
        <source>position embedding</source>
        <translation>位置嵌入</translation>
    </message>
    <message>
        <source>%1 H%2</source>
        <translation>%1 头%2</translation>
    </message>
    <message>
        <source>%1 projection bias</source>
        <translation>%1 投影偏置</translation>
    </message>
    <message>
        <source>%1 feed-forward</source>
        <translation>%1 前馈</translation>
    </message>
    <message>
        <source>%1 feed-forward bias</source>
        <translation>%1 前馈偏置</translation>
    </message>
    <message>
        <source>final norm bias</source>
        <translation>最后的 LayerNorm 偏置</translation>
    </message>
    <message>
        <source>head bias</source>
        <translation>输出头偏置</translation>
    </message>
    <message>
        <source>No attribution: %1</source>
        <translation>无法归因：%1</translation>
    </message>
    <message>
        <source>Click a character of a text to see why the model wrote it.</source>
        <translation>点击文本中的一个字符，查看模型为什么写出它。</translation>
    </message>
    <message>
        <source>Why &apos;%1&apos; (logit %2, probability %3%4): its margin over &apos;%5&apos; is %6. The parts below add up to the logit within %7 (model at step %8).</source>
        <translation>为什么是“%1”（logit %2，概率 %3%4）：它比“%5”高出 %6。下面各部分之和与 logit 相差不超过 %7（第 %8 步的模型）。</translation>
    </message>
    <message>
        <source>, its top guess</source>
        <translation>，是它的首选</translation>
    </message>
    <message>
        <source>Direct logit attribution: what each part adds to the logit, through the final LayerNorm with its scale frozen (largest first)</source>
        <translation>直接 logit 归因：每个部分给 logit 加了多少，经过缩放固定的最后 LayerNorm 读出（从大到小）</translation>
    </message>
    <message>
        <source>Which earlier characters mattered: gradient x input on each one&apos;s embedding (blue raises the logit, red lowers it)</source>
        <translation>哪些前面的字符起了作用：每个字符嵌入上的梯度 × 输入（蓝色抬高 logit，红色压低）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; at %2 (%3%)</source>
        <translation>第 %2 个字符“%1”（%3%）</translation>
    </message>
    <message>
        <source>, then </source>
        <translation>，其次 </translation>
    </message>
    <message>
        <source>Export why this character</source>
        <translation>导出“为什么是这个字符”</translation>
    </message>
    <message>
        <source>JSON document (*.json)</source>
        <translation>JSON 文档 (*.json)</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save this view as a PNG or SVG picture, a CSV table or a JSON document</source>
        <translation>把这个视图保存为 PNG 或 SVG 图片、CSV 表格或 JSON 文档</translation>
    </message>
    <message>
        <source>Patch…</source>
        <translation>修补…</translation>
    </message>
    <message>
        <source>Open the patching lab on these characters: the same prompt with one character changed, and which layers and positions bring this character back</source>
        <translation>在这些字符上打开修补实验室：改动一个字符的同一提示，以及哪些层和位置能把这个字符找回来</translation>
    </message>
    <message>
        <source>Where the heads that add most looked from this position (their attention, deeper green for more; character positions counted from 1)</source>
        <translation>贡献最大的几个头从这个位置看向了哪里（它们的注意力，绿色越深越多；字符位置从 1 数起）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (adds %2): most on %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（加 %2）：最多看向 %3</translation>
    </message>
</context>
<context>
    <name>CharacterMapCanvas</name>
    <message>
        <source>“%1” (%2)</source>
        <translation>“%1”（%2）</translation>
    </message>
    <message>
        <source>No neighbours measured.</source>
        <translation>没有测得近邻。</translation>
    </message>
    <message>
        <source>Nearest by cosine:</source>
        <translation>余弦最近的字符：</translation>
    </message>
    <message>
        <source>first principal axis (%1 of the variance)</source>
        <translation>第一主轴（占方差的 %1）</translation>
    </message>
    <message>
        <source>first principal axis</source>
        <translation>第一主轴</translation>
    </message>
    <message>
        <source>second principal axis (%1)</source>
        <translation>第二主轴（%1）</translation>
    </message>
    <message>
        <source>second principal axis</source>
        <translation>第二主轴</translation>
    </message>
</context>
<context>
    <name>CharacterMapView</name>
    <message>
        <source>positions %1 and %2: cosine %3</source>
        <translation>位置 %1 与 %2：余弦 %3</translation>
    </message>
    <message>
        <source>Export the characters&apos; map</source>
        <translation>导出字符地图</translation>
    </message>
    <message>
        <source>cosine of two positions</source>
        <translation>两个位置的余弦</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see where it puts each character.</source>
        <translation>训练一个模型或打开检查点，即可查看它把每个字符放在哪里。</translation>
    </message>
    <message>
        <source>Step %1 (%2 of the %3 steps this map has measured), %4 characters.</source>
        <translation>第 %1 步（本图已测量的 %3 步中的第 %2 步），%4 个字符。</translation>
    </message>
    <message>
        <source>The characters&apos; map at step %1</source>
        <translation>第 %1 步的字符地图</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the map and the similarity as a PNG or SVG picture, or the map as CSV</source>
        <translation>将地图和相似度保存为 PNG 或 SVG 图片，或将地图保存为 CSV</translation>
    </message>
    <message>
        <source>Step %1, %2 characters; each line leads from where the character was at step %3 (A) to where it is now.</source>
        <translation>第 %1 步，%2 个字符；每条线从该字符在第 %3 步（A）时的位置连到它现在的位置。</translation>
    </message>
    <message>
        <source>Where the model puts each character: its embedding (the vector it starts from) projected on the two directions along which the embeddings differ most. Characters the model treats alike end up close. Hover a character, or choose one below, for its nearest neighbours. Right: how alike the model&apos;s position vectors are, position against position (does position 10 look like 11?).</source>
        <translation>模型把每个字符放在哪里：字符的嵌入（模型的起点向量）投影到嵌入之间差别最大的两个方向上。模型对待方式相似的字符会靠在一起。将鼠标悬停在字符上，或在下方选择一个字符，可查看它的最近邻。右侧：模型的位置向量两两之间有多相似（位置 10 像位置 11 吗？）。</translation>
    </message>
</context>
<context>
    <name>CharacterNeighbours</name>
    <message>
        <source>Nearest characters of</source>
        <translation>最近的字符：</translation>
    </message>
    <message>
        <source>“%1” %2</source>
        <translation>“%1” %2</translation>
    </message>
    <message>
        <source>no other character to compare with.</source>
        <translation>没有其他字符可比较。</translation>
    </message>
    <message>
        <source>at step %1, by the cosine of their embeddings (1: the same direction): %2</source>
        <translation>第 %1 步，按嵌入向量的余弦（1 表示方向相同）：%2</translation>
    </message>
</context>
<context>
    <name>CheckpointPanel</name>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>参数量：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>注意力头：</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>宽度：</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>Vocabulary:</source>
        <translation>词表：</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <source>Tokens seen:</source>
        <translation>已训练词元：</translation>
    </message>
    <message>
        <source>Last val loss:</source>
        <translation>最近验证损失：</translation>
    </message>
    <message>
        <source>%1 × %2 dimensions</source>
        <translation>%1 × %2 维</translation>
    </message>
    <message>
        <source>%1 dimensions</source>
        <translation>%1 维</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1（第 %2 步）</translation>
    </message>
    <message>
        <source>not evaluated</source>
        <translation>未评估</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>No model yet: press Start to train one, or open a checkpoint with File &gt; Open checkpoint…</source>
        <translation>还没有模型：按“开始”训练一个，或通过“文件 &gt; 打开检查点…”打开检查点。</translation>
    </message>
    <message>
        <source>not saved yet</source>
        <translation>尚未保存</translation>
    </message>
</context>
<context>
    <name>CorpusPanel</name>
    <message>
        <source>Tang poems (唐诗三百首)</source>
        <translation>唐诗三百首</translation>
    </message>
    <message>
        <source>Song lyrics (宋词一百首)</source>
        <translation>宋词一百首</translation>
    </message>
    <message>
        <source>Python standard library</source>
        <translation>Python 标准库</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Train on a UTF-8 text file (you can also drop one on the window)</source>
        <translation>用一个 UTF-8 文本文件训练（也可以把文件拖到窗口上）</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Train on every text file of a folder</source>
        <translation>用一个文件夹中的所有文本文件训练</translation>
    </message>
    <message>
        <source>Preview:</source>
        <translation>预览：</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>No corpus loaded.</source>
        <translation>尚未加载语料。</translation>
    </message>
    <message>
        <source>%1 · %2 characters · vocabulary of %3</source>
        <translation>%1 · %2 个字符 · 词表 %3 个</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) left out</source>
        <translation>
            <numerusform>跳过了 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not load %1: %2</source>
        <translation>无法加载 %1：%2</translation>
    </message>
    <message>
        <source>Preview, as the model reads it:</source>
        <translation>预览（模型读到的样子）：</translation>
    </message>
    <message>
        <source>Read with the model&apos;s %1 characters: it knows every one.</source>
        <translation>按模型的 %1 个字符读取：每个字符模型都认识。</translation>
    </message>
    <message>
        <source>Read with the model&apos;s %1 characters: %2 it does not know (%3%) are left out.</source>
        <translation>按模型的 %1 个字符读取：模型不认识的 %2 个字符（%3%）被略去。</translation>
    </message>
    <message>
        <source>Validation: %1 of the %2 documents, drawn with the run&apos;s seed.</source>
        <translation>验证：%2 篇文档中的 %1 篇，按本次运行的种子抽取。</translation>
    </message>
    <message>
        <source>Validation: the end of the text.</source>
        <translation>验证：文本的末尾部分。</translation>
    </message>
</context>
<context>
    <name>FeedForwardView</name>
    <message>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Neuron %1 at position %2 (%3): %4</source>
        <translation>神经元 %1，位置 %2（%3）：%4</translation>
    </message>
    <message>
        <source>Neuron %1: no validation text to look for what fires it.</source>
        <translation>神经元 %1：没有验证文本可用来寻找激活它的字符。</translation>
    </message>
    <message>
        <source>…%1[%2] %3</source>
        <translation>…%1[%2] %3</translation>
    </message>
    <message>
        <source>Neuron %1 fires most, in the first %2 characters of the validation text, at the bracketed character: %3</source>
        <translation>在验证文本的前 %2 个字符中，神经元 %1 在方括号内的字符处激活最强：%3</translation>
    </message>
    <message>
        <source>The feed-forward works on each position alone: one input vector gives one output wherever it stands. (No character repeats in the probe to show it on.)</source>
        <translation>前馈网络对每个位置单独计算：同一个输入向量无论在哪个位置，都得到同一个输出。（探测文本中没有重复的字符可用来演示。）</translation>
    </message>
    <message>
        <source>The feed-forward works on each position alone: one input vector gives one output wherever it stands. %1 is at positions %2 and %3: attention gave the two different inputs (%4 apart), so their outputs differ (%5 apart). Given position %2&apos;s input at both, the outputs differ by %6: the same, up to rounding.</source>
        <translation>前馈网络对每个位置单独计算：同一个输入向量无论在哪个位置，都得到同一个输出。%1 出现在位置 %2 和 %3：注意力使两处的输入不同（相距 %4），所以输出也不同（相距 %5）。若两处都给位置 %2 的输入，输出只相差 %6：除舍入误差外完全相同。</translation>
    </message>
    <message>
        <source>activation after the GELU</source>
        <translation>GELU 之后的激活值</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its feed-forward neurons.</source>
        <translation>训练一个模型或打开检查点，即可查看其前馈神经元。</translation>
    </message>
    <message>
        <source>The %1 of %2 neurons that fire hardest on the probe, hardest first (numbered from 1).</source>
        <translation>在探测文本上激活最强的 %1 个神经元（共 %2 个），最强的在前（从 1 编号）。</translation>
    </message>
    <message>
        <source>After attention, each layer&apos;s feed-forward reads every character&apos;s vector on its own and passes it through a wide layer of neurons. Each row is a character of the probe, each column a neuron: a bright cell means that neuron fires strongly there. Point at a column to see which characters of the validation text fire it most.</source>
        <translation>在注意力之后，每一层的前馈网络单独读取每个字符的向量，并让它通过一层很宽的神经元。每一行是探测文本的一个字符，每一列是一个神经元：格子越亮，该神经元在那里激活越强。把鼠标指向一列，可看到验证文本中哪些字符最能激活它。</translation>
    </message>
    <message>
        <source>Export the feed-forward</source>
        <translation>导出前馈网络</translation>
    </message>
    <message>
        <source>The feed-forward of layer %1</source>
        <translation>第 %1 层的前馈网络</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the layer shown as a PNG or SVG picture, or every layer&apos;s activations as a CSV table</source>
        <translation>将所显示的层保存为 PNG 或 SVG 图片，或将每一层的激活值保存为 CSV 表格</translation>
    </message>
</context>
<context>
    <name>FilmstripPage</name>
    <message>
        <source>Save filmstrip</source>
        <translation>保存胶片</translation>
    </message>
    <message>
        <source>No filmstrip: %1</source>
        <translation>无法生成胶片：%1</translation>
    </message>
    <message>
        <source>Sampling run %1: %2 of %3 steps so far…</source>
        <translation>正在为运行 %1 采样：已完成 %2 / %3 步…</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 steps.</source>
        <translation>已在 %1 / %2 步后停止。</translation>
    </message>
    <message>
        <source>No run on the timeline keeps its weights yet: train one, or open one in the Runs tab.</source>
        <translation>时间轴上还没有保存了权重的运行：先训练一个，或在“运行”标签页中打开一个。</translation>
    </message>
    <message>
        <source>Run %1 keeps its weights as it learns: sample every kept step from the same prompt and seed to see what the model wrote at each.</source>
        <translation>运行 %1 在学习过程中保存了权重：用相同的提示词和随机种子对每个保存的步采样，看看模型在每一步写出了什么。</translation>
    </message>
    <message>
        <source>Click a row to show that step in every tab.</source>
        <translation>点击某一行，即可在所有标签页中显示该步。</translation>
    </message>
    <message>
        <source>Left out of the prompt (not in the vocabulary): %1</source>
        <translation>提示词中略去的字符（不在词表中）：%1</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>(the start of a document)</source>
        <translation>（从文档开头开始）</translation>
    </message>
    <message>
        <source>Every sample continues this text; empty: each starts a document</source>
        <translation>每个样本都接着这段文字写；留空：每个样本都从文档开头写起</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>0 always picks the likeliest character</source>
        <translation>0 表示总是选择可能性最大的字符</translation>
    </message>
    <message>
        <source>Sample every kept step</source>
        <translation>对每个保存的步采样</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save the filmstrip as a web page (.html) or as text (.txt)</source>
        <translation>将胶片保存为网页（.html）或文本（.txt）</translation>
    </message>
    <message>
        <source>Web page (*.html *.htm);;Text (*.txt)</source>
        <translation>网页 (*.html *.htm);;文本 (*.txt)</translation>
    </message>
</context>
<context>
    <name>FilmstripView</name>
    <message>
        <source>No filmstrip yet: it needs a run that keeps its weights.</source>
        <translation>尚无胶片：需要一个保存了权重的运行。</translation>
    </message>
    <message>
        <source>from the start of a document</source>
        <translation>从文档开头开始</translation>
    </message>
    <message>
        <source>from &quot;%1&quot;</source>
        <translation>从“%1”开始</translation>
    </message>
    <message>
        <source>A sample of up to %1 characters at each of %2 steps, %3, seed %4, temperature %5.</source>
        <translation>在 %2 个步数中的每一步各生成最多 %1 个字符的样本，%3，种子 %4，温度 %5。</translation>
    </message>
    <message>
        <source>Not evaluated at this step</source>
        <translation>此步未做评估</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>The same prompt, seed and temperature at every step the run keeps: noise first, then characters, words and lines as the model learns.</source>
        <translation>在运行保存的每一步使用相同的提示、种子和温度：先是噪声，随着模型学习，依次出现字符、词语和整行。</translation>
    </message>
</context>
<context>
    <name>GenerationView</name>
    <message>
        <source>Prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Type the beginning of a text, or leave empty</source>
        <translation>输入文本的开头，或留空</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>0 always picks the likeliest character</source>
        <translation>0 表示总是选择可能性最大的字符</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p：</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Generate one character and show why it was picked</source>
        <translation>生成一个字符，并显示它被选中的原因</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <source>Likeliest next characters (the one picked in orange):</source>
        <translation>最可能的下一个字符（被选中的为橙色）：</translation>
    </message>
    <message>
        <source>Attention of the new character, each head of layer</source>
        <translation>新字符的注意力，该层的每个头</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>After each block</source>
        <translation>逐块预测</translation>
    </message>
    <message>
        <source>The logit lens: what the model would have predicted had it stopped after each block; the last column is this step</source>
        <translation>logit 透镜：如果模型在每个模块之后就停下，它会预测什么；最后一列就是这一步</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>A prompt holds at most %1 characters: only the last %1 of the pasted text were kept.</source>
        <translation>提示词最多容纳 %1 个字符：只保留了粘贴文本的最后 %1 个字符。</translation>
    </message>
    <message numerus="yes">
        <source>%n character(s) of the prompt are not in the model&apos;s vocabulary (highlighted): %1. Remove or replace them.</source>
        <translation>
            <numerusform>提示词中有 %n 个字符不在模型的词表中（已高亮）：%1。请删除或替换它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (pos %2)</source>
        <translation>查询“%1”（位置 %2）</translation>
    </message>
    <message>
        <source>found verbatim in the training text</source>
        <translation>在训练文本中原样出现过</translation>
    </message>
    <message>
        <source>copied: %1% of the characters (spans of %2 or more found verbatim in the training text)</source>
        <translation>照搬了 %1% 的字符（在训练文本中原样出现、至少 %2 个字符的片段）</translation>
    </message>
    <message>
        <source>Samples:</source>
        <translation>样本数：</translation>
    </message>
    <message>
        <source>Several samples of the prompt, generated together: sample i uses seed + i - 1, so each is what that seed alone writes. Step makes one.</source>
        <translation>同一提示的多个样本一起生成：第 i 个样本使用种子 + i - 1，因此每个样本都与单独用该种子生成的结果相同。单步模式只生成一个。</translation>
    </message>
    <message>
        <source>The other samples, generated together with the first (in the output above):</source>
        <translation>其余样本，与第一个样本（上方输出）一起生成：</translation>
    </message>
    <message>
        <source>Sample %1 · seed %2</source>
        <translation>样本 %1 · 种子 %2</translation>
    </message>
</context>
<context>
    <name>HeadRolesView</name>
    <message>
        <source>Export the head roles</source>
        <translation>导出注意力头的角色</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>%1 at step %2: %3 %4</source>
        <translation>%1 在第 %2 步：%3 %4</translation>
    </message>
    <message>
        <source>A head attending evenly scores %1.</source>
        <translation>均匀分配注意力的头得分为 %1。</translation>
    </message>
    <message>
        <source>Train a model: the scores of every head are measured at each snapshot.</source>
        <translation>训练一个模型：每个快照都会测量每个注意力头的得分。</translation>
    </message>
    <message>
        <source>Heatmap at step %1 (%2 of the %3 steps measured here).</source>
        <translation>热图：第 %1 步（此处已测量的 %3 步中的第 %2 步）。</translation>
    </message>
    <message>
        <source>%1 of every head; heatmap at step %2</source>
        <translation>每个注意力头的%1；热图为第 %2 步</translation>
    </message>
    <message>
        <source>What each head has learned to look at, snapshot by snapshot. A previous-token head attends to the character just before; an induction head finds an earlier occurrence of the current character and attends to what followed it, so it can continue a repeated text (Olsson et al., 2022). Induction heads tend to appear suddenly, after previous-token heads, and the loss drops when they do. The dashed line is the score of a head that attends evenly.</source>
        <translation>每个注意力头学会了看什么，逐个快照展示。前一字符头关注紧挨在前面的字符；归纳头找到当前字符在前文中的出现位置，并关注紧随其后的字符，从而能接续重复的文本（Olsson 等，2022）。归纳头往往在前一字符头之后突然出现，此时损失随之下降。虚线是均匀分配注意力的头的得分。</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>得分：</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the plot and the heatmap as a PNG or SVG picture, or the scores as CSV</source>
        <translation>将曲线图和热图保存为 PNG 或 SVG 图片，或将得分保存为 CSV</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>change of the %1 since step %2</source>
        <translation>自第 %2 步以来%1的变化</translation>
    </message>
    <message>
        <source>At step %1 (A): %2</source>
        <translation>第 %1 步（A）时：%2</translation>
    </message>
    <message>
        <source>Each head&apos;s change since step %1 (A): red rose, blue fell.</source>
        <translation>每个头自第 %1 步（A）以来的变化：红色为上升，蓝色为下降。</translation>
    </message>
    <message>
        <source>Step %1 (A) is not among the steps measured, so nothing is compared.</source>
        <translation>第 %1 步（A）不在已测量的步中，因此不作对比。</translation>
    </message>
</context>
<context>
    <name>HealthView</name>
    <message>
        <source>Layer %1&apos;s updates are %2x larger than the other layers&apos; (step %3).</source>
        <translation>第 %1 层的更新比其他层大 %2 倍（第 %3 步）。</translation>
    </message>
    <message>
        <source>At step %1 the updates are %2x the healthy 1e-3 of the weights: the learning rate is likely too high.</source>
        <translation>第 %1 步的更新是权重的健康比例 1e-3 的 %2 倍：学习率很可能太高。</translation>
    </message>
    <message>
        <source>Loss spike at step %1: the gradient norm is %2x its median.</source>
        <translation>第 %1 步损失突增：梯度范数是其中位数的 %2 倍。</translation>
    </message>
    <message>
        <source>%1 of %2 heads attend only to the previous character (step %3).</source>
        <translation>%2 个头中有 %1 个只关注前一个字符（第 %3 步）。</translation>
    </message>
    <message>
        <source>%1 of %2 heads&apos; attention collapsed onto one character, entropy near 0 (step %3).</source>
        <translation>%2 个头中有 %1 个的注意力坍缩到单个字符上，熵接近 0（第 %3 步）。</translation>
    </message>
    <message>
        <source>Training health, per layer</source>
        <translation>训练健康状况（逐层）</translation>
    </message>
    <message>
        <source>The health of a run is measured every few steps while it trains: the size of each layer&apos;s gradients and updates, its feed-forward units that never fire, and how spread each head&apos;s attention is.</source>
        <translation>训练时每隔几步测量一次运行的健康状况：每一层梯度与更新的大小、从不激活的前馈单元，以及每个头的注意力有多分散。</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>update / weight (guide 1e-3)</source>
        <translation>更新 / 权重（参考线 1e-3）</translation>
    </message>
    <message>
        <source>units that never fire</source>
        <translation>从不激活的单元占比</translation>
    </message>
    <message>
        <source>head entropy, nats</source>
        <translation>头的熵（奈特）</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>collapsed head</source>
        <translation>坍缩的头</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Export training health</source>
        <translation>导出训练健康状况</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of every figure (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;包含所有数值的 CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Measured at step %1, the nearest to step %2: gradient norm %3, update / weight %4 (the layers&apos; median), %5 of the feed-forward units never fire, lowest head entropy %6 nats.</source>
        <translation>在第 %1 步测得（离第 %2 步最近）：梯度范数 %3，更新 / 权重 %4（各层的中位数），前馈网络中 %5 的单元从不激活，最低的头熵 %6 奈特。</translation>
    </message>
    <message>
        <source>The latest %1 of %2 warnings:</source>
        <translation>%2 条警告中最近的 %1 条：</translation>
    </message>
</context>
<context>
    <name>InsideData</name>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>第 %1 块</translation>
    </message>
    <message>
        <source>L%1 attention</source>
        <translation>第 %1 层注意力</translation>
    </message>
    <message>
        <source>L%1 feed-forward</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Induction score</source>
        <translation>归纳得分</translation>
    </message>
    <message>
        <source>Previous-token score</source>
        <translation>前一字符得分</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>第 %1 层 头%2</translation>
    </message>
    <message>
        <source>letter</source>
        <translation>字母</translation>
    </message>
    <message>
        <source>digit</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation>标点</translation>
    </message>
    <message>
        <source>CJK</source>
        <translation>中日韩文字</translation>
    </message>
    <message>
        <source>space</source>
        <translation>空白</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>The probe needs two characters the model knows for the logit lens.</source>
        <translation>探测文本至少需要两个模型认识的字符，才能做 logit 透镜。</translation>
    </message>
    <message>
        <source>This model has no position embeddings to compare (a rung of the architecture ladder).</source>
        <translation>这个模型没有位置嵌入可供比较（它是架构阶梯的一级）。</translation>
    </message>
    <message>
        <source>This model has no heads to score: it is a bigram model without layers (a rung of the architecture ladder).</source>
        <translation>这个模型没有可评分的注意力头：它是没有层的二元模型（架构阶梯的一级）。</translation>
    </message>
    <message>
        <source>No text of two known characters to score the heads on.</source>
        <translation>没有含两个已知字符的文本，无法给注意力头评分。</translation>
    </message>
</context>
<context>
    <name>InsidePage</name>
    <message>
        <source>The model at step %1, as the timeline below the tabs chose it.</source>
        <translation>第 %1 步的模型，即标签页下方时间线所选的步。</translation>
    </message>
    <message>
        <source>No model yet: train one, open a checkpoint or open a run in the Runs tab.</source>
        <translation>还没有模型：训练一个、打开检查点，或在“运行”标签页中打开一次运行。</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <source>Head roles</source>
        <translation>注意力头的角色</translation>
    </message>
    <message>
        <source>Knock-out</source>
        <translation>屏蔽</translation>
    </message>
    <message>
        <source>Characters&apos; map</source>
        <translation>字符地图</translation>
    </message>
    <message>
        <source>No logit lens at this step: the probe needs two characters the model knows.</source>
        <translation>此步没有 logit 透镜：探针文本至少需要两个模型认识的字符。</translation>
    </message>
    <message>
        <source>No feed-forward at this step: the probe has no character the model knows.</source>
        <translation>此步没有前馈视图：探测文本中没有模型认识的字符。</translation>
    </message>
    <message>
        <source>No residual stream at this step: the probe has no character the model knows.</source>
        <translation>此步没有残差流视图：探测文本中没有模型认识的字符。</translation>
    </message>
    <message>
        <source>Inside the model as it trains: what each block would predict, what each head has learned to do, what each part is worth, which feed-forward neurons fire, what each part writes into the residual stream, and where the characters sit. Move the timeline below the tabs to see the model at any step the run keeps.</source>
        <translation>训练中的模型内部：每个模块会预测什么，每个注意力头学会了做什么，每个部分的价值，哪些前馈神经元被激活，每个部分向残差流写入了什么，以及字符在哪里。拖动标签页下方的时间线，可查看这次训练保留的任一步的模型。</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>Residual stream</source>
        <translation>残差流</translation>
    </message>
</context>
<context>
    <name>KnockoutView</name>
    <message>
        <source>Export the knock-out</source>
        <translation>导出屏蔽实验</translation>
    </message>
    <message>
        <source>loss increase, nats</source>
        <translation>损失增加（奈特）</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>%1 was not knocked out.</source>
        <translation>%1 未被屏蔽。</translation>
    </message>
    <message>
        <source>%1 knocked out: loss %2 nats, %3 against %4 with every head</source>
        <translation>屏蔽 %1：损失 %2 奈特，相对于所有头都在时的 %4，变化 %3</translation>
    </message>
    <message>
        <source>Knocking out every head and block in turn…</source>
        <translation>正在依次屏蔽每个注意力头和每个模块…</translation>
    </message>
    <message>
        <source>Press Knock out to measure what each head and block is worth to the model.</source>
        <translation>按“屏蔽”来测量每个注意力头和每个模块对模型的价值。</translation>
    </message>
    <message>
        <source>Baseline: validation loss %1 nats with nothing knocked out (model at step %2).</source>
        <translation>基线：不屏蔽任何部分时验证损失为 %1 奈特（模型位于第 %2 步）。</translation>
    </message>
    <message>
        <source>Baseline: validation loss %1 nats with nothing knocked out.</source>
        <translation>基线：不屏蔽任何部分时验证损失为 %1 奈特。</translation>
    </message>
    <message>
        <source>Knock-out at step %1</source>
        <translation>第 %1 步的屏蔽实验</translation>
    </message>
    <message>
        <source>Knock-out</source>
        <translation>屏蔽实验</translation>
    </message>
    <message>
        <source>Largest increases</source>
        <translation>增加最多的</translation>
    </message>
    <message>
        <source>What each part of the model is worth: the validation loss with one head (or a layer&apos;s whole attention or feed-forward block) switched off, its output set to zero. A large increase means the model relies on that part; near zero, it could do without.</source>
        <translation>模型每个部分的价值：关闭一个注意力头（或一层的整个注意力或前馈模块），把它的输出置零后的验证损失。损失增加得多，说明模型依赖这一部分；接近零，说明没有它也行。</translation>
    </message>
    <message>
        <source>Knock out</source>
        <translation>屏蔽</translation>
    </message>
    <message>
        <source>Measure the validation loss with each head and each block knocked out in turn</source>
        <translation>依次屏蔽每个注意力头和每个模块，测量验证损失</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the heatmap as a PNG or SVG picture, or the table as CSV</source>
        <translation>将热图保存为 PNG 或 SVG 图片，或将表格保存为 CSV</translation>
    </message>
    <message>
        <source>Knocked out</source>
        <translation>屏蔽的部分</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Loss (nats)</source>
        <translation>损失（奈特）</translation>
    </message>
    <message>
        <source>Increase (nats)</source>
        <translation>增加（奈特）</translation>
    </message>
</context>
<context>
    <name>LadderView</name>
    <message>
        <source>bigram</source>
        <translation>二元模型</translation>
    </message>
    <message>
        <source>one attention head</source>
        <translation>一个注意力头</translation>
    </message>
    <message>
        <source>one head, unscaled</source>
        <translation>一个头，不缩放</translation>
    </message>
    <message>
        <source>heads and projection</source>
        <translation>多头与投影</translation>
    </message>
    <message>
        <source>+ feed-forward</source>
        <translation>+ 前馈网络</translation>
    </message>
    <message>
        <source>one whole block</source>
        <translation>一个完整的块</translation>
    </message>
    <message>
        <source>CharGPT</source>
        <translation>CharGPT</translation>
    </message>
    <message>
        <source>Token embeddings and the language-model head only: each character guesses the next from itself alone.</source>
        <translation>只有词元嵌入和语言模型头：每个字符只凭自己猜下一个字符。</translation>
    </message>
    <message>
        <source>Position embeddings and one masked self-attention head: each position looks back over the context.</source>
        <translation>位置嵌入和一个带掩码的自注意力头：每个位置回看上下文。</translation>
    </message>
    <message>
        <source>The same without dividing the scores by √(head size): the softmax saturates and attends to one character.</source>
        <translation>同上，但分数不除以 √(头大小)：softmax 饱和，只关注一个字符。</translation>
    </message>
    <message>
        <source>Several smaller heads, scaled again, and the output projection: several things looked at at once.</source>
        <translation>几个更小的头（重新缩放）和输出投影：同时关注几样东西。</translation>
    </message>
    <message>
        <source>The feed-forward after the attention: each position thinks about what it gathered.</source>
        <translation>注意力之后的前馈网络：每个位置思考它收集到的信息。</translation>
    </message>
    <message>
        <source>Residual connections and pre-norm LayerNorms around both halves: one whole block, which trains deep.</source>
        <translation>两半外加残差连接和前置 LayerNorm：一个完整的块，可以训练得很深。</translation>
    </message>
    <message>
        <source>Blocks stacked, with the final LayerNorm: the full CharGPT.</source>
        <translation>堆叠多个块，加上最后的 LayerNorm：完整的 CharGPT。</translation>
    </message>
    <message>
        <source>training… %1</source>
        <translation>训练中… %1</translation>
    </message>
    <message>
        <source>%1 (stopped)</source>
        <translation>%1（已停止）</translation>
    </message>
    <message>
        <source>%1 (the loss stopped being finite)</source>
        <translation>%1（损失不再是有限值）</translation>
    </message>
    <message>
        <source>The architecture ladder builds CharGPT part by part: each rung adds one part to the rung before and trains alike on the loaded corpus, so the drop in validation loss shows what that part is worth. Each rung is recorded in the Runs tab.</source>
        <translation>架构阶梯一部分一部分地搭建 CharGPT：每一级在上一级的基础上加入一个部件，并在已加载的语料上以相同方式训练，所以验证损失的下降显示出这个部件的价值。每一级都记录在“运行”标签页中。</translation>
    </message>
    <message>
        <source>Train the Architecture Ladder</source>
        <translation>训练架构阶梯</translation>
    </message>
    <message>
        <source>rung</source>
        <translation>级</translation>
    </message>
    <message>
        <source>best validation loss (nats)</source>
        <translation>最佳验证损失（纳特）</translation>
    </message>
    <message>
        <source>uniform floor</source>
        <translation>均匀下限</translation>
    </message>
    <message>
        <source>unigram floor</source>
        <translation>一元下限</translation>
    </message>
    <message>
        <source>bigram floor</source>
        <translation>二元下限</translation>
    </message>
    <message>
        <source>Rung</source>
        <translation>级</translation>
    </message>
    <message>
        <source>What it adds</source>
        <translation>加入了什么</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Best val loss</source>
        <translation>最佳验证损失</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences, one after the other</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>the corpus %1 is no longer there.</source>
        <translation>语料 %1 已经不在了。</translation>
    </message>
    <message>
        <source>the text of %1 has changed since this ladder trained.</source>
        <translation>%1 的文本在这个阶梯训练之后已经改变。</translation>
    </message>
    <message>
        <source>the corpus %1 cannot be read: %2</source>
        <translation>无法读取语料 %1：%2</translation>
    </message>
    <message>
        <source>No floors are drawn: %1</source>
        <translation>没有画出下限：%1</translation>
    </message>
    <message>
        <source>Measuring the floors of the corpus&apos;s validation text…</source>
        <translation>正在测量语料验证文本的下限…</translation>
    </message>
    <message>
        <source>at an unknown time</source>
        <translation>时间未知</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 (%n rung(s))</source>
        <translation>
            <numerusform>%1，%2（%n 级）</numerusform>
        </translation>
    </message>
    <message>
        <source>An earlier ladder can be picked once this one has ended.</source>
        <translation>这个阶梯结束后才能选择更早的阶梯。</translation>
    </message>
    <message>
        <source>The ladders the run library keeps, the newest first.</source>
        <translation>运行库中保存的阶梯，最新的在前。</translation>
    </message>
    <message>
        <source>The ladder training now, on %1.</source>
        <translation>正在训练的阶梯，语料为 %1。</translation>
    </message>
    <message>
        <source>The ladder training now.</source>
        <translation>正在训练的阶梯。</translation>
    </message>
    <message>
        <source>The ladder trained in this window.</source>
        <translation>在这个窗口中训练的阶梯。</translation>
    </message>
    <message>
        <source>No ladder has been trained yet: Train the Architecture Ladder trains one on the loaded corpus (and chargpt ladder on any), and the newest is shown here.</source>
        <translation>还没有训练过阶梯：“训练架构阶梯”会在已加载的语料上训练一个（chargpt ladder 可用任何语料），最新的阶梯显示在这里。</translation>
    </message>
    <message>
        <source>%1 (no end recorded)</source>
        <translation>%1（没有记录结束）</translation>
    </message>
    <message>
        <source>&amp;Ladder:</source>
        <translation>阶梯(&amp;L)：</translation>
    </message>
    <message>
        <source>The ladder trained on %1, started %2, read back from the run library.</source>
        <translation>在 %1 上训练的阶梯，开始于 %2，从运行库中读取。</translation>
    </message>
    <message>
        <source>No ladder trained before can be shown. %1</source>
        <translation>无法显示之前训练的阶梯。%1</translation>
    </message>
    <message>
        <source>Rung %1 (%2) has the lowest loss, %3 nats; the later rung, with more parts, does worse (%4).</source>
        <translation>第 %1 级（%2）的损失最低，为 %3 纳特；后面那一级部件更多，却更差（%4）。</translation>
    </message>
    <message>
        <source>Rung %1 (%2) has the lowest loss, %3 nats; every later rung, with more parts, does worse (%4 to %5).</source>
        <translation>第 %1 级（%2）的损失最低，为 %3 纳特；后面每一级部件都更多，却都更差（%4 到 %5）。</translation>
    </message>
    <message>
        <source>This text is too little for their parameters (up to %1): they learn the training text by heart instead of what carries over to new text. More text, not more parts, would help.</source>
        <translation>这段文本对它们的参数（最多 %1 个）来说太少了：它们背下了训练文本，而没有学到能推广到新文本的东西。需要的是更多文本，而不是更多部件。</translation>
    </message>
    <message>
        <source>This text is too little for the larger models: they learn the training text by heart instead of what carries over to new text. More text, not more parts, would help.</source>
        <translation>这段文本对更大的模型来说太少了：它们背下了训练文本，而没有学到能推广到新文本的东西。需要的是更多文本，而不是更多部件。</translation>
    </message>
    <message>
        <source>Rung %1 (%2) is the first below the bigram floor: %3 against %4 nats, so it uses more than the one character before.</source>
        <translation>第 %1 级（%2）最先低于二元下限：%3 对 %4 纳特，所以它用到的不止前一个字符。</translation>
    </message>
    <message>
        <source>Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats). The bigram floor (%5) counts the validation text&apos;s own pairs on itself: on a text this small no model trained on other text comes near it.</source>
        <translation>第 %1 级（%2）最先低于一元下限（%3 对 %4 纳特）。二元下限（%5）是用验证文本自身的字符对在它自己身上统计出来的：在这么小的文本上，用别的文本训练的模型都到不了它附近。</translation>
    </message>
    <message>
        <source>Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats); no rung beats the bigram floor (%5) yet.</source>
        <translation>第 %1 级（%2）最先低于一元下限（%3 对 %4 纳特）；还没有哪一级低于二元下限（%5）。</translation>
    </message>
    <message>
        <source>No rung is below the unigram floor (%1 nats) yet: train longer.</source>
        <translation>还没有哪一级低于一元下限（%1 纳特）：请训练更久。</translation>
    </message>
    <message>
        <source>The biggest drop, %1 nats, comes at rung %2 (%3), which adds: %4</source>
        <translation>最大的下降（%1 纳特）出现在第 %2 级（%3），它加入了：%4</translation>
    </message>
    <message>
        <source>%1-gram floor</source>
        <translation>%1 元语法下限</translation>
    </message>
</context>
<context>
    <name>LearningRateView</name>
    <message>
        <source>Learning-rate finder</source>
        <translation>学习率查找器</translation>
    </message>
    <message>
        <source>Find trains a new model of the current settings for a few hundred steps while its learning rate grows from 1e-5 to 1. The loss falls while the rate is useful and climbs once it is too large. The model you train is not touched.</source>
        <translation>“查找”会用当前设置训练一个新模型几百步，同时让学习率从 1e-5 增长到 1。学习率有用时损失下降，过大时损失回升。你正在训练的模型不受影响。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Use this rate (%1)</source>
        <translation>使用这个学习率（%1）</translation>
    </message>
    <message>
        <source>Use this rate</source>
        <translation>使用这个学习率</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>learning rate (log scale)</source>
        <translation>学习率（对数刻度）</translation>
    </message>
    <message>
        <source>training loss, nats</source>
        <translation>训练损失（奈特）</translation>
    </message>
    <message>
        <source>loss of each step</source>
        <translation>每一步的损失</translation>
    </message>
    <message>
        <source>smoothed loss</source>
        <translation>平滑后的损失</translation>
    </message>
    <message>
        <source>The sweep found nothing: %1</source>
        <translation>扫描没有得到结果：%1</translation>
    </message>
    <message>
        <source>Steepest fall at %1; lowest loss at %2. Suggested: %3, a tenth of the lowest point (red line).%4</source>
        <translation>下降最陡处在 %1；损失最低处在 %2。建议：%3，即最低点的十分之一（红线）。%4</translation>
    </message>
    <message>
        <source> The loss ran away past it, so the sweep ended early.</source>
        <translation>此后损失失控，扫描提前结束。</translation>
    </message>
    <message>
        <source>Sweeping…</source>
        <translation>正在扫描…</translation>
    </message>
    <message>
        <source>Export the learning-rate sweep</source>
        <translation>导出学习率扫描</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;包含所有数据点的 CSV 表格 (*.csv)</translation>
    </message>
</context>
<context>
    <name>LessonController</name>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>L&amp;essons</source>
        <translation>课程(&amp;E)</translation>
    </message>
    <message>
        <source>Open a Lesson File…</source>
        <translation>打开课程文件…</translation>
    </message>
    <message>
        <source>Presentation Mode</source>
        <translation>演示模式</translation>
    </message>
    <message>
        <source>The built-in lesson %1 is missing.</source>
        <translation>内置课程 %1 缺失。</translation>
    </message>
    <message>
        <source>Open a Lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.json);;All files (*)</source>
        <translation>课程 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Presentation Type Size</source>
        <translation>演示字号</translation>
    </message>
    <message>
        <source>To Fit the Screen</source>
        <translation>适应屏幕</translation>
    </message>
</context>
<context>
    <name>LessonPane</name>
    <message>
        <source>Train a model or open one first, and let the Attention tab show it: this answer is computed from your model.</source>
        <translation>请先训练或打开一个模型，并让“注意力”标签页显示它：这个答案是用你的模型算出来的。</translation>
    </message>
    <message>
        <source>softmax(x) = %1
softmax(1000 x) = %2
The largest score takes %3% of the weight: multiplied scores push softmax towards a one-hot vector, so a few large scores would decide everything.</source>
        <translation>softmax(x) = %1
softmax(1000 x) = %2
最大的分数拿走了 %3% 的权重：分数被放大后，softmax 趋向独热向量，少数几个大分数就会决定一切。</translation>
    </message>
    <message>
        <source>The spread (standard deviation) of q·k for random q and k: %1 at head size 8, %2 at head size 64, about √H. Divided by √H: %3 and %4. The scaling keeps softmax&apos;s input at the same spread whatever the head size.</source>
        <translation>随机 q 与 k 的点积 q·k 的分散程度（标准差）：头大小为 8 时为 %1，为 64 时为 %2，约为 √H。除以 √H 之后：%3 和 %4。缩放让 softmax 的输入无论头多大都保持同样的分散程度。</translation>
    </message>
    <message>
        <source>Yes: layer %1, head %2 puts %3% of its attention on the previous character, on the probe text. Find it in the Attention tab: a bright line just below the diagonal.</source>
        <translation>有：在探针文本上，第 %1 层第 %2 个头把 %3% 的注意力放在前一个字符上。在“注意力”标签页中找它：对角线正下方的一条亮线。</translation>
    </message>
    <message>
        <source>Not yet: the head that looks most at the previous character, layer %1, head %2, puts %3% of its attention there. Such heads often appear as training goes on.</source>
        <translation>还没有：最关注前一个字符的头是第 %1 层第 %2 个头，它把 %3% 的注意力放在那里。这样的头常常随着训练进行而出现。</translation>
    </message>
    <message>
        <source>Your prediction was right.</source>
        <translation>你的预测是对的。</translation>
    </message>
    <message>
        <source>Not what you predicted.</source>
        <translation>和你的预测不同。</translation>
    </message>
    <message>
        <source>The answer: %1</source>
        <translation>答案：%1</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Check my prediction</source>
        <translation>检验我的预测</translation>
    </message>
    <message>
        <source>Predict first</source>
        <translation>先预测</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>No lesson is open. Choose one in the Lessons menu.</source>
        <translation>尚未打开课程。请在“课程”菜单中选择一个。</translation>
    </message>
    <message>
        <source>In all %1 rows of every head of your model, the weights on a character and those before it add up to 1 (to float rounding): the characters after it get nothing. The mask set their scores to −∞, and softmax turns −∞ into exactly 0.</source>
        <translation>在你的模型每个头的全部 %1 行中，一个字符及其之前字符上的权重之和为 1（在浮点舍入误差之内）：它后面的字符什么也得不到。掩码把它们的分数设为 −∞，softmax 把 −∞ 变成恰好为 0。</translation>
    </message>
    <message>
        <source>In some of the %1 rows of your model&apos;s heads, the weights on a character and those before it add up to only %2: %3 went to characters after it. This model was not trained with the causal mask.</source>
        <translation>在你的模型各个头的 %1 行中，有些行里一个字符及其之前字符上的权重之和只有 %2：有 %3 给了它后面的字符。这个模型不是带着因果掩码训练的。</translation>
    </message>
    <message>
        <source>layer %1: %2</source>
        <translation>第 %1 层：%2</translation>
    </message>
    <message>
        <source>Press Knock out in the Inside tab&apos;s Knock-out view first: this answer is the loss your model reaches without each part.</source>
        <translation>请先在“模型内部”标签页的“屏蔽”视图中按“屏蔽”：这个答案就是你的模型去掉每个部分后的损失。</translation>
    </message>
    <message>
        <source>The validation loss is %1 nats with every part; without a layer&apos;s feed-forward it rises by (nats) %2. Attention gathers from other characters; the feed-forward is where each position turns that into its guess.</source>
        <translation>所有部分都在时验证损失为 %1 奈特；去掉某一层的前馈网络后，它升高（奈特）%2。注意力从其他字符收集信息；前馈网络是每个位置把这些信息变成猜测的地方。</translation>
    </message>
    <message>
        <source>Press Start and let the model train until its first evaluations: this answer is its validation loss.</source>
        <translation>请按“开始”，让模型训练到做过几次评估：这个答案就是它的验证损失。</translation>
    </message>
    <message>
        <source>Your model&apos;s lowest validation loss is %1 nats, at step %2. A uniform guess scores %3 (ln V); a model that ignores the context cannot go below %4, the unigram entropy of the text. Below it, the model uses what came before each character.</source>
        <translation>你的模型最低的验证损失是 %1 奈特，在第 %2 步。均匀猜测的得分是 %3（ln V）；忽略上下文的模型不可能低于 %4，即文本的一元熵。低于它，说明模型在利用每个字符之前的内容。</translation>
    </message>
    <message>
        <source>Measured on your model at step %1 of run %2.</source>
        <translation>这是在第 %2 次运行第 %1 步的模型上测得的。</translation>
    </message>
    <message>
        <source>Measured on your model at step %1.</source>
        <translation>这是在第 %1 步的模型上测得的。</translation>
    </message>
    <message>
        <source>Its newest step is %1, where the answer may differ: move the timeline there and check again.</source>
        <translation>它最新的一步是第 %1 步，那里的答案可能不同：把时间线移到那里再检查一次。</translation>
    </message>
    <message>
        <source>Click a character in the Surprise or Generate tab first: this answer is what the why window finds for it.</source>
        <translation>请先在“意外度”或“生成”标签页中点击一个字符：这个答案就是“为什么”窗口为它找到的结果。</translation>
    </message>
    <message>
        <source>For &apos;%1&apos; the part that adds most to its logit is %2: %3 of %4. The why window lists the others, and where the heads that add most looked.</source>
        <translation>对“%1”来说，给它的 logit 加得最多的部件是 %2：%4 中的 %3。“为什么”窗口列出了其他部件，以及贡献最大的几个头看向了哪里。</translation>
    </message>
    <message>
        <source>Run the patching lab first (Preset, then Run): this answer is what it finds.</source>
        <translation>先运行修补实验室（按“预设”，再按“运行”）：这个答案就是它的发现。</translation>
    </message>
    <message>
        <source>The corrupted prompt changes the last character, which is already at the last position: change an earlier one and run again.</source>
        <translation>被破坏的提示改动的是最后一个字符，它本来就在最后一个位置上：请改动前面的某个字符，再运行一次。</translation>
    </message>
    <message>
        <source>after layer %1: %2%</source>
        <translation>第 %1 层后 %2%</translation>
    </message>
    <message>
        <source>The lab&apos;s result has no layer whose stream at the last position restores half of the difference: run it again to the end.</source>
        <translation>实验室的结果中没有哪一层在最后一个位置上的残差流能恢复一半的差：请再运行一次，直到结束。</translation>
    </message>
    <message>
        <source>The stream at the last position, patched alone, restores %1. It first restores half or more after layer %2: that layer&apos;s attention carried the changed character (&apos;%3&apos; at position %4) to the last position.</source>
        <translation>单独修补最后一个位置上的残差流，恢复的比例为：%1。它在第 %2 层后首次恢复一半或更多：正是这一层的注意力把被改动的字符（位置 %4 的“%3”）带到了最后一个位置。</translation>
    </message>
</context>
<context>
    <name>LiveScoresView</name>
    <message>
        <source>query %1 (row %2) · key %3 (column %4): %5</source>
        <translation>查询 %1（第 %2 行）· 键 %3（第 %4 列）：%5</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint: the scores of its heads for the probe text of the Attention tab appear here.</source>
        <translation>训练一个模型或打开检查点：它的各个头对“注意力”页探测文本的分数会显示在这里。</translation>
    </message>
    <message>
        <source>Step %1, layer %2, head %3, H = %4, T = %5. Standard deviation of q·kᵀ: %6; divided by √H = %7: %8 (all T×T scores), %9 (the unmasked ones that reach the softmax).</source>
        <translation>第 %1 步，第 %2 层，第 %3 个头，H = %4，T = %5。q·kᵀ 的标准差：%6；除以 √H = %7 之后：%8（全部 T×T 个分数），%9（未被遮蔽、进入 softmax 的分数）。</translation>
    </message>
    <message>
        <source>The real scores of one head of the model for the probe text (Attention tab): q·kᵀ/√H before the mask, then with -inf above the diagonal, where a query would see a later character. The softmax of each masked row is the head&apos;s attention.</source>
        <translation>模型某个头对探测文本（“注意力”页）的真实分数：先是遮蔽之前的 q·kᵀ/√H，然后是对角线以上填入 -inf 的结果——那些位置上查询会看到之后的字符。每一行遮蔽后的 softmax 就是这个头的注意力。</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Scaled scores q·kᵀ/√H (rows: queries, columns: keys)</source>
        <translation>缩放后的分数 q·kᵀ/√H（行：查询，列：键）</translation>
    </message>
    <message>
        <source>After the causal mask</source>
        <translation>因果遮蔽之后</translation>
    </message>
</context>
<context>
    <name>LogitLensView</name>
    <message>
        <source>Export the logit lens</source>
        <translation>导出 Logit 透镜</translation>
    </message>
    <message>
        <source>%1, position %2 (%3)</source>
        <translation>%1，位置 %2（%3）</translation>
    </message>
    <message>
        <source>Top guess: %1, %2</source>
        <translation>首选猜测：%1，%2</translation>
    </message>
    <message>
        <source>No next character to compare with.</source>
        <translation>没有下一个字符可供比较。</translation>
    </message>
    <message>
        <source>True next character: %1, rank %2, %3</source>
        <translation>真实的下一个字符：%1，排名 %2，%3</translation>
    </message>
    <message>
        <source>probability of the top guess</source>
        <translation>首选猜测的概率</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see what it predicts after each block.</source>
        <translation>训练一个模型或打开检查点，即可查看它在每个模块之后的预测。</translation>
    </message>
    <message>
        <source>Model at step %1. Bright cells: the layer is already sure of its guess.</source>
        <translation>模型位于第 %1 步。亮色格子：该层对自己的猜测已经很有把握。</translation>
    </message>
    <message>
        <source>Bright cells: the layer is already sure of its guess.</source>
        <translation>亮色格子：该层对自己的猜测已经很有把握。</translation>
    </message>
    <message>
        <source>Logit lens at step %1</source>
        <translation>第 %1 步的 Logit 透镜</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <source>What the model would predict if it stopped after each block: the last row is its real prediction. Each cell shows the likeliest next character at that position, on the colour of its probability; hover a cell for the true next character and its rank.</source>
        <translation>如果模型在每个模块之后就停下，它会预测什么：最后一行是它真正的预测。每个格子显示该位置最可能的下一个字符，底色表示其概率；将鼠标悬停在格子上可查看真实的下一个字符及其排名。</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the grid as a PNG or SVG picture, or a CSV table</source>
        <translation>将网格保存为 PNG 或 SVG 图片，或 CSV 表格</translation>
    </message>
</context>
<context>
    <name>LossPlot</name>
    <message>
        <source>train loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>train loss (smoothed)</source>
        <translation>训练损失（平滑）</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Export loss curves</source>
        <translation>导出损失曲线</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;包含所有数据点的 CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>No loss yet: press Start to train</source>
        <translation>还没有损失数据：按“开始”进行训练</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Weight of the past in the smoothed curve</source>
        <translation>平滑曲线中历史数据的权重</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应数据</translation>
    </message>
    <message>
        <source>Fit the view to the data and follow new points (or double-click the plot)</source>
        <translation>让视图适应数据并跟随新数据点（也可双击图表）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the plot as PNG, SVG or PDF, or all points as CSV</source>
        <translation>将图表保存为 PNG、SVG 或 PDF，或将所有数据点保存为 CSV</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>train loss %1</source>
        <translation>训练损失 %1</translation>
    </message>
    <message>
        <source>smoothed %1</source>
        <translation>平滑后 %1</translation>
    </message>
    <message>
        <source>learning rate %1</source>
        <translation>学习率 %1</translation>
    </message>
    <message>
        <source>validation loss %1 (step %2)</source>
        <translation>验证损失 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>uniform guess: ln V = %1 · above it: worse than guessing</source>
        <translation>均匀猜测：ln V = %1 · 高于此线：不如瞎猜</translation>
    </message>
    <message>
        <source>uniform guess: log₂ V = %1 · above it: worse than guessing</source>
        <translation>均匀猜测：log₂ V = %1 · 高于此线：不如瞎猜</translation>
    </message>
    <message>
        <source>uniform guess: V = %1 · above it: worse than guessing</source>
        <translation>均匀猜测：V = %1 · 高于此线：不如瞎猜</translation>
    </message>
    <message>
        <source>no context: unigram entropy = %1</source>
        <translation>不看上下文：单字熵 = %1</translation>
    </message>
    <message>
        <source>no context: unigram perplexity = %1</source>
        <translation>不看上下文：单字困惑度 = %1</translation>
    </message>
    <message>
        <source>%1 nats</source>
        <translation>%1 奈特</translation>
    </message>
    <message>
        <source>%1 bits</source>
        <translation>%1 比特</translation>
    </message>
    <message>
        <source>perplexity %1</source>
        <translation>困惑度 %1</translation>
    </message>
    <message>
        <source>loss (nats per character)</source>
        <translation>损失（每字符奈特）</translation>
    </message>
    <message>
        <source>loss (bits per character)</source>
        <translation>损失（每字符比特）</translation>
    </message>
    <message>
        <source>perplexity (e^loss)</source>
        <translation>困惑度（e^损失）</translation>
    </message>
    <message>
        <source>lowest validation loss</source>
        <translation>最低验证损失</translation>
    </message>
    <message>
        <source>nats per character</source>
        <translation>每字符奈特</translation>
    </message>
    <message>
        <source>bits per character</source>
        <translation>每字符比特</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <source>Show the loss in nats per character, in bits per character (nats / ln 2) or as perplexity (e^nats: how many characters the model hesitates between)</source>
        <translation>以每字符奈特、每字符比特（奈特 / ln 2）或困惑度（e^奈特：模型在多少个字符之间犹豫）显示损失</translation>
    </message>
    <message>
        <source>memorising from here</source>
        <translation>从这里开始死记硬背</translation>
    </message>
    <message>
        <source>From step %1 validation loss rose while training loss kept falling: the model is memorising its training text instead of learning what carries over to new text.</source>
        <translation>从第 %1 步起，验证损失上升而训练损失仍在下降：模型在死记训练文本，而不是学习能迁移到新文本的规律。</translation>
    </message>
    <message>
        <source>Lowest validation loss: %1 at step %2.</source>
        <translation>最低验证损失：第 %2 步的 %1。</translation>
    </message>
    <message>
        <source>Uniform guess (%1): the loss of a model that gives every character of the vocabulary the same chance; a validation curve above it does worse than guessing.</source>
        <translation>均匀猜测（%1）：给词表中每个字符相同概率的模型的损失；验证曲线高于此线，说明比瞎猜还差。</translation>
    </message>
    <message>
        <source>No context (%1): the loss of a model that ignores the text before and guesses each character by how often it occurs in the training text.</source>
        <translation>不看上下文（%1）：忽略前文、只按字符在训练文本中出现的频率来猜的模型的损失。</translation>
    </message>
    <message>
        <source>%1; solid: validation, dashed: training</source>
        <translation>%1；实线：验证，虚线：训练</translation>
    </message>
    <message>
        <source>No runs to draw</source>
        <translation>没有可绘制的运行</translation>
    </message>
    <message>
        <source>tokens seen</source>
        <translation>已见词元数</translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation>训练时间（秒）</translation>
    </message>
    <message>
        <source>%1: validation loss %2 (%3 %4)</source>
        <translation>%1：验证损失 %2（%3 %4）</translation>
    </message>
    <message>
        <source>, lowest %1, highest %2</source>
        <translation>，最低 %1，最高 %2</translation>
    </message>
    <message>
        <source>loss (nats)</source>
        <translation>损失（奈特）</translation>
    </message>
    <message>
        <source>loss (bits)</source>
        <translation>损失（比特）</translation>
    </message>
    <message>
        <source>%1-gram floor %2 · passed at step %3</source>
        <translation>%1 元语法下限 %2 · 在第 %3 步越过</translation>
    </message>
    <message>
        <source>%1-gram floor %2</source>
        <translation>%1 元语法下限 %2</translation>
    </message>
    <message>
        <source>%1-gram floor (%2): the validation loss of a classic model that sees the last %3 character(s) only (interpolated Kneser-Ney, fitted to the training text). A model above it has learned less than those characters tell.</source>
        <translation>%1 元语法下限（%2）：只看前 %3 个字符的经典模型（插值 Kneser-Ney 平滑，在训练文本上拟合）的验证损失。高于它的模型学到的还不如这几个字符所能告诉的多。</translation>
    </message>
    <message>
        <source>solid: validation, dashed: training</source>
        <translation>实线：验证，虚线：训练</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Run %1 keeps no weights, so the timeline cannot replay it.</source>
        <translation>运行 %1 没有保存权重，时间线无法回放它。</translation>
    </message>
    <message>
        <source>These weights are skipped, the views stay as they were: %1</source>
        <translation>已跳过这些权重，各视图保持原样：%1</translation>
    </message>
    <message>
        <source>Run library: %1</source>
        <translation>运行库：%1</translation>
    </message>
    <message>
        <source>This run is not recorded in the run library: %1</source>
        <translation>这个运行没有记录到运行库中：%1</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open checkpoint…</source>
        <translation>打开检查点(&amp;O)…</translation>
    </message>
    <message>
        <source>Could not import “%1”: %2 The current model is unchanged.</source>
        <translation>无法导入“%1”：%2 当前模型保持不变。</translation>
    </message>
    <message>
        <source>&amp;Import PyTorch model…</source>
        <translation>导入 PyTorch 模型(&amp;I)…</translation>
    </message>
    <message>
        <source>Open a state_dict saved by the book&apos;s Python code, with its vocabulary</source>
        <translation>打开书中 Python 代码保存的 state_dict 及其词表</translation>
    </message>
    <message>
        <source>&amp;Export settings for PyTorch…</source>
        <translation>导出设置供 PyTorch 使用(&amp;E)…</translation>
    </message>
    <message>
        <source>Write the settings as JSON for python/train_ddp.py</source>
        <translation>将设置写成 JSON，供 python/train_ddp.py 使用</translation>
    </message>
    <message>
        <source>Imported %1: %2 layers, %3 heads of %4, width %5, context %6, %7 tokens. Its attention and generation are in the tabs; Continue trains it further on the loaded corpus; Save keeps it as a checkpoint.</source>
        <translation>已导入 %1：%2 层，%3 个大小为 %4 的注意力头，宽度 %5，上下文 %6，%7 个词元。注意力和生成见各标签页；“继续训练”在已加载的语料上接着训练它；“保存”将它存为检查点。</translation>
    </message>
    <message>
        <source>Stop training before importing a model.</source>
        <translation>请先停止训练，再导入模型。</translation>
    </message>
    <message>
        <source>Import PyTorch model</source>
        <translation>导入 PyTorch 模型</translation>
    </message>
    <message>
        <source>PyTorch state_dict (*.pt *.pth *.bin);;All files (*)</source>
        <translation>PyTorch state_dict (*.pt *.pth *.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Vocabulary of the imported model</source>
        <translation>导入模型的词表</translation>
    </message>
    <message>
        <source>A state_dict holds numbers, not characters. Take the vocabulary from the text the model was trained on (&lt;|e|&gt; is 0, its sorted characters follow) or from a JSON vocabulary file.</source>
        <translation>state_dict 里只有数字，没有字符。请从模型训练所用的文本取得词表（&lt;|e|&gt; 为 0，其后依次是排序后的字符），或使用 JSON 词表文件。</translation>
    </message>
    <message>
        <source>The loaded corpus (%1)</source>
        <translation>已加载的语料（%1）</translation>
    </message>
    <message>
        <source>Corpus file…</source>
        <translation>语料文件…</translation>
    </message>
    <message>
        <source>Corpus folder…</source>
        <translation>语料文件夹…</translation>
    </message>
    <message>
        <source>Vocabulary file…</source>
        <translation>词表文件…</translation>
    </message>
    <message>
        <source>Corpus the model was trained on</source>
        <translation>模型训练所用的语料</translation>
    </message>
    <message>
        <source>Vocabulary file</source>
        <translation>词表文件</translation>
    </message>
    <message>
        <source>JSON vocabulary (*.json);;All files (*)</source>
        <translation>JSON 词表 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could not export the settings to “%1”: %2</source>
        <translation>无法将设置导出到“%1”：%2</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export settings for PyTorch</source>
        <translation>导出设置供 PyTorch 使用</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About CharGPT Studio</source>
        <translation>关于 CharGPT Studio(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>打开检查点</translation>
    </message>
    <message>
        <source>CharGPT checkpoints (*.pt);;All files (*)</source>
        <translation>CharGPT 检查点 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>About CharGPT Studio</source>
        <translation>关于 CharGPT Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;CharGPT Studio %1&lt;/h3&gt;&lt;p&gt;Trains a small character-level GPT on your own text and shows how it learns.&lt;/p&gt;&lt;p&gt;Built with LibTorch, Qt and QCustomPlot.&lt;/p&gt;&lt;p&gt;Licensed under the GNU General Public License, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;CharGPT Studio %1&lt;/h3&gt;&lt;p&gt;用你自己的文本训练一个小型字符级 GPT，并展示它的学习过程。&lt;/p&gt;&lt;p&gt;基于 LibTorch、Qt 和 QCustomPlot 构建。&lt;/p&gt;&lt;p&gt;依据 GNU 通用公共许可证第 3 版或（由你选择）任何更新版本授权。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Could not open the checkpoint “%1”: %2. The current model is unchanged.</source>
        <translation>无法打开检查点“%1”：%2。当前模型保持不变。</translation>
    </message>
    <message>
        <source>Autosaved to %1</source>
        <translation>已自动保存到 %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Could not save “%1”: %2</source>
        <translation>无法保存“%1”：%2</translation>
    </message>
    <message>
        <source>Open &amp;corpus file…</source>
        <translation>打开语料文件(&amp;C)…</translation>
    </message>
    <message>
        <source>Train on a UTF-8 text file</source>
        <translation>用一个 UTF-8 文本文件训练</translation>
    </message>
    <message>
        <source>Open corpus &amp;folder…</source>
        <translation>打开语料文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Train on every text file of a folder</source>
        <translation>用一个文件夹中的所有文本文件训练</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save checkpoint</source>
        <translation>保存检查点(&amp;S)</translation>
    </message>
    <message>
        <source>Save checkpoint &amp;as…</source>
        <translation>检查点另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Softmax lab</source>
        <translation>Softmax 实验室</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>正在训练</translation>
    </message>
    <message>
        <source>Training is still running. Save the model before quitting?</source>
        <translation>训练仍在进行。退出前要保存模型吗？</translation>
    </message>
    <message>
        <source>It is autosaved to %1 either way.</source>
        <translation>无论如何，模型都会自动保存到 %1。</translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation>保存检查点</translation>
    </message>
    <message>
        <source>CharGPT checkpoints (*.pt)</source>
        <translation>CharGPT 检查点 (*.pt)</translation>
    </message>
    <message>
        <source>Open corpus file</source>
        <translation>打开语料文件</translation>
    </message>
    <message>
        <source>Open corpus folder</source>
        <translation>打开语料文件夹</translation>
    </message>
    <message>
        <source>Stop training before changing the corpus.</source>
        <translation>请先停止训练，再更换语料。</translation>
    </message>
    <message>
        <source>Start is disabled: %1</source>
        <translation>无法开始：%1</translation>
    </message>
    <message>
        <source>Start is disabled until a corpus is loaded.</source>
        <translation>加载语料之后才能开始。</translation>
    </message>
    <message>
        <source>The architecture settings changed.</source>
        <translation>模型结构设置已经更改。</translation>
    </message>
    <message>
        <source>Discard the trained model?</source>
        <translation>放弃已训练的模型？</translation>
    </message>
    <message>
        <source>%1 Training now starts a new model and discards the current one (step %2).</source>
        <translation>%1现在训练将创建一个新模型，并放弃当前模型（第 %2 步）。</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>Training stopped: %1</source>
        <translation>训练已停止：%1</translation>
    </message>
    <message>
        <source>Training stopped at step %1</source>
        <translation>训练在第 %1 步停止</translation>
    </message>
    <message>
        <source>Training finished at step %1</source>
        <translation>训练在第 %1 步完成</translation>
    </message>
    <message>
        <source>Validation loss has risen since step %1 while training loss keeps falling: the model is memorising its training text instead of learning what carries over to new text. Restore best puts back the weights of step %2; fewer steps, more dropout or a larger text avoid it.</source>
        <translation>验证损失从第 %1 步起一直上升，而训练损失仍在下降：模型在死记硬背训练文本，而不是学到能迁移到新文本的规律。“恢复最佳”会放回第 %2 步的权重；减少步数、加大 dropout 或换更大的文本都能避免这种情况。</translation>
    </message>
    <message>
        <source>Stop training before opening a checkpoint.</source>
        <translation>请先停止训练，再打开检查点。</translation>
    </message>
    <message>
        <source>Could not copy the model for the views: %1</source>
        <translation>无法为视图复制模型：%1</translation>
    </message>
    <message>
        <source>From the live model</source>
        <translation>来自当前模型</translation>
    </message>
    <message>
        <source>No attention to show: %1</source>
        <translation>没有可显示的注意力：%1</translation>
    </message>
    <message>
        <source>No scores to show: %1</source>
        <translation>没有可显示的分数：%1</translation>
    </message>
    <message>
        <source>Not in the model&apos;s vocabulary, left out of the prompt: %1</source>
        <translation>不在模型词表中，已从提示词中略去：%1</translation>
    </message>
    <message>
        <source>Generation failed: %1</source>
        <translation>生成失败：%1</translation>
    </message>
    <message>
        <source>The prompt has %1 characters; the model reads only its last %2.</source>
        <translation>提示有 %1 个字符；模型只读取最后 %2 个。</translation>
    </message>
    <message>
        <source>There is no model yet: train one or open a checkpoint.</source>
        <translation>还没有模型：请先训练一个或打开检查点。</translation>
    </message>
    <message>
        <source>The generation is over (end of text or length reached): change the prompt or a setting to start again.</source>
        <translation>生成已结束（遇到文本结束符或达到长度）：修改提示词或任一设置即可重新开始。</translation>
    </message>
    <message>
        <source>Inside</source>
        <translation>模型内部</translation>
    </message>
    <message>
        <source>Nothing to show inside the model: %1</source>
        <translation>模型内部无可显示：%1</translation>
    </message>
    <message>
        <source>No knock-out: %1</source>
        <translation>无法屏蔽：%1</translation>
    </message>
    <message>
        <source>Surprise</source>
        <translation>意外度</translation>
    </message>
    <message>
        <source>No surprise to show: %1</source>
        <translation>无法显示意外度：%1</translation>
    </message>
    <message>
        <source>Filmstrip</source>
        <translation>胶片</translation>
    </message>
    <message>
        <source>Training the architecture ladder: rung %1 (%2), step %3 of %4. Start waits until it ends; Stop ends it.</source>
        <translation>正在训练架构阶梯：第 %1 级（%2），第 %3 / %4 步。“开始”需等它结束；“停止”会结束它。</translation>
    </message>
    <message>
        <source>The architecture ladder could not train: %1 The model in the window is unchanged.</source>
        <translation>架构阶梯无法训练：%1 窗口中的模型没有改变。</translation>
    </message>
    <message>
        <source>The architecture ladder stopped: the rungs trained so far are kept in the Runs tab.</source>
        <translation>架构阶梯已停止：已训练的各级保留在“运行”标签页中。</translation>
    </message>
    <message>
        <source>The architecture ladder is trained: each rung is a run in the Runs tab.</source>
        <translation>架构阶梯训练完毕：每一级都是“运行”标签页中的一次运行。</translation>
    </message>
    <message>
        <source>Load a corpus first: the architecture ladder trains on the loaded corpus.</source>
        <translation>请先加载语料：架构阶梯在已加载的语料上训练。</translation>
    </message>
    <message>
        <source>The architecture ladder cannot start while a run trains: stop it first.</source>
        <translation>有训练正在进行时无法开始架构阶梯：请先停止它。</translation>
    </message>
    <message>
        <source>Training the architecture ladder…</source>
        <translation>正在训练架构阶梯…</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>Train the Architecture &amp;Ladder</source>
        <translation>训练架构阶梯(&amp;L)</translation>
    </message>
    <message>
        <source>Trains each rung of the architecture ladder on the loaded corpus, records each as a run, and charts their best validation losses beside the floors.</source>
        <translation>在已加载的语料上训练架构阶梯的每一级，把每一级记录为一次运行，并把它们的最佳验证损失与各下限画在一起。</translation>
    </message>
    <message>
        <source>Ladder</source>
        <translation>阶梯</translation>
    </message>
    <message>
        <source>The current model (step %1) knows %2 characters. Keep it and train it further on “%3”, reading that text with the model&apos;s own characters (those it does not know are left out), or discard it and start a new model on the new text?</source>
        <translation>当前模型（第 %1 步）认识 %2 个字符。保留它，在“%3”上继续训练（按模型自己的字符读取这段文本，不认识的字符被略去），还是丢弃它，在新文本上训练一个新模型？</translation>
    </message>
    <message>
        <source>A discarded model is lost unless you save it first.</source>
        <translation>丢弃的模型如果没有先保存就会丢失。</translation>
    </message>
    <message>
        <source>A discarded model stays in its file, %1.</source>
        <translation>丢弃的模型仍保存在它的文件中：%1。</translation>
    </message>
    <message>
        <source>Keep the trained model?</source>
        <translation>保留已训练的模型？</translation>
    </message>
    <message>
        <source>Keep the model</source>
        <translation>保留模型</translation>
    </message>
    <message>
        <source>New model</source>
        <translation>新模型</translation>
    </message>
    <message>
        <source>Text files (%1);;All files (*)</source>
        <translation>文本文件 (%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Restore a saved model with its optimizer and loss history, or open a model of nanoGPT, minGPT or the lecture&apos;s code</source>
        <translation>恢复保存的模型及其优化器与损失历史，或打开 nanoGPT、minGPT 或课程代码训练的模型</translation>
    </message>
    <message>
        <source>Export model for &amp;nanoGPT…</source>
        <translation>导出模型到 &amp;nanoGPT…</translation>
    </message>
    <message>
        <source>Write ckpt.pt and meta.pkl that nanoGPT&apos;s sample.py and train.py read</source>
        <translation>写出 nanoGPT 的 sample.py 和 train.py 可读取的 ckpt.pt 与 meta.pkl</translation>
    </message>
    <message>
        <source>Folder for nanoGPT&apos;s ckpt.pt and meta.pkl</source>
        <translation>存放 nanoGPT 的 ckpt.pt 与 meta.pkl 的文件夹</translation>
    </message>
    <message>
        <source>It computes unlike the book&apos;s CharGPT: %1.</source>
        <translation>它的计算方式与书中的 CharGPT 不同：%1。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Wrote ckpt.pt and meta.pkl to %1. In nanoGPT, put meta.pkl in data/chargpt/; sample.py and train.py (init_from=&apos;resume&apos;) then read them.</source>
        <translation>已将 ckpt.pt 和 meta.pkl 写入 %1。在 nanoGPT 中把 meta.pkl 放到 data/chargpt/ 下，sample.py 和 train.py（init_from=&apos;resume&apos;）即可读取。</translation>
    </message>
    <message>
        <source>Could not export the model to %1: %2</source>
        <translation>无法将模型导出到 %1：%2</translation>
    </message>
    <message>
        <source>Show the health plot</source>
        <translation>显示训练健康图</translation>
    </message>
    <message>
        <source>open a corpus first.</source>
        <translation>请先打开语料。</translation>
    </message>
    <message>
        <source>stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Learning rate set to %1; the next run uses it.</source>
        <translation>学习率已设为 %1；下一次运行将使用它。</translation>
    </message>
    <message>
        <source>Find a learning rate…</source>
        <translation>查找学习率…</translation>
    </message>
    <message>
        <source>Sweep a copy of the settings from a tiny to a large learning rate and suggest one. The model you train is not touched.</source>
        <translation>用当前设置的副本把学习率从很小扫到很大，并给出建议。你正在训练的模型不受影响。</translation>
    </message>
    <message>
        <source>No patching: %1</source>
        <translation>无法修补：%1</translation>
    </message>
</context>
<context>
    <name>ModelBridge</name>
    <message>
        <source>emb_size must be positive (it is %1).</source>
        <translation>嵌入宽度（emb_size）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>head_size must be positive (it is %1).</source>
        <translation>注意力头大小（head_size）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>n_layer must be positive (it is %1).</source>
        <translation>层数（n_layer）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>sequence_len must be positive (it is %1).</source>
        <translation>上下文长度（sequence_len）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>batch_size must be positive (it is %1).</source>
        <translation>批大小（batch_size）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>eval_iters must be positive (it is %1).</source>
        <translation>每次评估的批数（eval_iters）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>eval_interval must be positive (it is %1).</source>
        <translation>评估间隔（eval_interval）必须为正数（当前为 %1）。</translation>
    </message>
    <message>
        <source>learning rate must be a positive number.</source>
        <translation>学习率必须为正数。</translation>
    </message>
    <message>
        <source>emb_size (%1) must be divisible by head_size (%2).</source>
        <translation>嵌入宽度 emb_size（%1）必须能被注意力头大小 head_size（%2）整除。</translation>
    </message>
    <message>
        <source>vocab_size must be at least 2 (end-of-text and one character).</source>
        <translation>词表大小（vocab_size）至少为 2（文本结束符和一个字符）。</translation>
    </message>
    <message>
        <source>sequence_len must be at least %1 (it is %2).</source>
        <translation>上下文长度（sequence_len）至少为 %1（当前为 %2）。</translation>
    </message>
    <message>
        <source>the vocabulary has %1 entries; at most %2 are supported.</source>
        <translation>词表有 %1 个条目；最多支持 %2 个。</translation>
    </message>
    <message>
        <source>dropout must be in [0, 1) (it is %1).</source>
        <translation>dropout 必须在 [0, 1) 之间（当前为 %1）。</translation>
    </message>
    <message>
        <source>the minimum learning rate must be between 0 and the learning rate.</source>
        <translation>最小学习率必须介于 0 与学习率之间。</translation>
    </message>
    <message>
        <source>AdamW betas must be in [0, 1).</source>
        <translation>AdamW 的 beta 参数必须在 [0, 1) 之间。</translation>
    </message>
    <message>
        <source>the validation fraction must be between 0 and 1.</source>
        <translation>验证集比例必须介于 0 与 1 之间。</translation>
    </message>
    <message>
        <source>weight decay must be zero or positive.</source>
        <translation>权重衰减必须为零或正数。</translation>
    </message>
    <message>
        <source>gradient clipping must be zero (off) or positive.</source>
        <translation>梯度裁剪必须为零（关闭）或正数。</translation>
    </message>
    <message>
        <source>warm-up steps must be zero or positive.</source>
        <translation>预热步数必须为零或正数。</translation>
    </message>
    <message>
        <source>the number of steps must be zero or positive.</source>
        <translation>训练步数必须为零或正数。</translation>
    </message>
    <message>
        <source>the time limit must be zero (none) or a positive number of seconds.</source>
        <translation>时间限制必须为零（不限时）或正的秒数。</translation>
    </message>
    <message>
        <source>set a number of steps or a time limit, or training would never end.</source>
        <translation>请设置训练步数或时间限制，否则训练永远不会结束。</translation>
    </message>
    <message>
        <source>training with these settings needs about %1 of memory and this machine has %2: lower the batch size, context length, width or number of layers.</source>
        <translation>按这些设置训练约需 %1 内存，而本机只有 %2：请减小批大小、上下文长度、宽度或层数。</translation>
    </message>
    <message>
        <source>threads must be zero (one per core) or positive.</source>
        <translation>线程数必须为零（每个核心一个）或正数。</translation>
    </message>
    <message>
        <source>the corpus has %1 characters; a context of %2 needs at least %3: lower the context length or choose a longer text.</source>
        <translation>语料只有 %1 个字符；上下文长度为 %2 时至少需要 %3 个：请减小上下文长度或选择更长的文本。</translation>
    </message>
    <message>
        <source>python/train_ddp.py trains the whole CharGPT, and this model is a rung of the architecture ladder without some of its parts: its settings cannot be exported for it.</source>
        <translation>python/train_ddp.py 训练完整的 CharGPT，而这个模型是架构阶梯中缺少某些部件的一级：无法为它导出设置。</translation>
    </message>
    <message>
        <source>a model without layers (n_layer 0) has no attention or feed-forward to switch off: scaled_attention, attention_projection, feed_forward and residual must stay on.</source>
        <translation>没有层的模型（n_layer 0）没有可关闭的注意力或前馈网络：scaled_attention、attention_projection、feed_forward 和 residual 必须保持开启。</translation>
    </message>
    <message>
        <source>it no longer holds the model of run %1: the run saved it at step %2, and it now holds a model at step %3, written there since.</source>
        <translation>它已不再是第 %1 次运行的模型：该运行在第 %2 步保存了它，而现在文件中是之后写入的第 %3 步的模型。</translation>
    </message>
    <message>
        <source>it no longer holds the model of run %1: the run saved it at step %2, and it now holds a model at step %3 with other settings (%4), written there since.</source>
        <translation>它已不再是第 %1 次运行的模型：该运行在第 %2 步保存了它，而现在文件中是之后写入的第 %3 步、设置不同（%4）的模型。</translation>
    </message>
    <message>
        <source>run %1 saved its model to “%2” at step %3, and that file is gone.</source>
        <translation>第 %1 次运行在第 %3 步把模型保存到了“%2”，而该文件已不存在。</translation>
    </message>
</context>
<context>
    <name>ModelConfig</name>
    <message>
        <source>tanh GELU feed-forward</source>
        <translation>前馈层使用 tanh 近似的 GELU</translation>
    </message>
    <message>
        <source>ReLU feed-forward</source>
        <translation>前馈层使用 ReLU</translation>
    </message>
    <message>
        <source>unknown feed-forward activation</source>
        <translation>前馈层激活函数未知</translation>
    </message>
    <message>
        <source>biases on q, k and v</source>
        <translation>q、k、v 带偏置</translation>
    </message>
    <message>
        <source>no biases in the LayerNorms and linear layers</source>
        <translation>LayerNorm 和线性层没有偏置</translation>
    </message>
    <message>
        <source>head without bias</source>
        <translation>输出头没有偏置</translation>
    </message>
    <message>
        <source>head tied to the token embedding</source>
        <translation>输出头与词元嵌入共享权重</translation>
    </message>
</context>
<context>
    <name>PatchingLab</name>
    <message>
        <source>The clean run&apos;s stream %1 at position %2 (&apos;%3&apos;) patched in restores %4% of the difference</source>
        <translation>把干净运行%1、第 %2 个位置（“%3”）的残差流修补进去，恢复了差值的 %4%</translation>
    </message>
    <message>
        <source>of the embeddings</source>
        <translation>嵌入处</translation>
    </message>
    <message>
        <source>after layer %1</source>
        <translation>第 %1 层之后</translation>
    </message>
    <message>
        <source>L%1 H%2&apos;s output at every position patched in restores %3% of the difference</source>
        <translation>把第 %1 层头%2 在所有位置的输出修补进去，恢复了差值的 %3%</translation>
    </message>
    <message>
        <source>The corpus&apos;s sample is too short for a preset: write the prompts yourself.</source>
        <translation>语料的样本太短，无法生成预设：请自己写提示。</translation>
    </message>
    <message>
        <source>The clean and the corrupted prompt must have the same number of characters (now %1 and %2).</source>
        <translation>干净提示和损坏提示的字符数必须相同（现在是 %1 和 %2）。</translation>
    </message>
    <message>
        <source>The prompts have %1 characters; the model reads at most %2.</source>
        <translation>提示有 %1 个字符；模型最多读 %2 个。</translation>
    </message>
    <message>
        <source>Write one character as the target: the one the clean prompt should make the model write.</source>
        <translation>请写一个字符作为目标：干净提示应让模型写出的那个字符。</translation>
    </message>
    <message>
        <source>The prompts are the same: change a character of the corrupted one.</source>
        <translation>两个提示相同：请改动损坏提示中的一个字符。</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>after L%1</source>
        <translation>第 %1 层后</translation>
    </message>
    <message>
        <source>share of the clean logit difference restored (1 = all)</source>
        <translation>恢复的干净 logit 差值份额（1 = 全部）</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>Measured: logit of &apos;%1&apos; minus that of &apos;%2&apos; at the last position, %3 in the clean run and %4 in the corrupted one.</source>
        <translation>度量：最后一个位置上“%1”的 logit 减去“%2”的 logit，干净运行中为 %3，损坏运行中为 %4。</translation>
    </message>
    <message>
        <source>in the embeddings</source>
        <translation>在嵌入处</translation>
    </message>
    <message>
        <source>Of the heads, L%1 H%2 restores most: %3%.</source>
        <translation>在所有头中，第 %1 层头%2 恢复得最多：%3%。</translation>
    </message>
    <message>
        <source>Patching: %1 of %2 patches measured…</source>
        <translation>修补中：已测量 %2 个修补中的 %1 个…</translation>
    </message>
    <message>
        <source>Patching…</source>
        <translation>修补中…</translation>
    </message>
    <message>
        <source>Activation patching: run a clean and a corrupted prompt of the same length, copy one part of the clean run into the corrupted run, and see how much of the clean logit difference comes back.</source>
        <translation>激活修补：运行长度相同的一个干净提示和一个损坏提示，把干净运行的某一部分复制到损坏运行中，看干净的 logit 差值恢复了多少。</translation>
    </message>
    <message>
        <source>Clean prompt:</source>
        <translation>干净提示：</translation>
    </message>
    <message>
        <source>Corrupted prompt:</source>
        <translation>损坏提示：</translation>
    </message>
    <message>
        <source>Target character:</source>
        <translation>目标字符：</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>A prompt from the corpus&apos;s sample and the same with one character changed</source>
        <translation>取自语料样本的一个提示，以及改动了一个字符的同一提示</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>The residual stream patched at one layer and position (columns: clean/corrupted character)</source>
        <translation>在某一层、某一位置修补残差流（列：干净/损坏字符）</translation>
    </message>
    <message>
        <source>Each head&apos;s output patched at every position</source>
        <translation>在所有位置修补每个头的输出</translation>
    </message>
    <message>
        <source>Besides the changed characters&apos; embeddings and the last layer&apos;s last position, which carry all of it by construction, position %1 (&apos;%2&apos;) %3 restores most: %4%.</source>
        <translation>除了被改动字符的嵌入和最后一层的最后一个位置（按构造它们恢复全部差值），第 %1 个位置（“%2”）%3恢复得最多：%4%。</translation>
    </message>
    <message>
        <source>Layer %1&apos;s feed-forward output at position %2 (&apos;%3&apos;) patched in restores %4% of the difference</source>
        <translation>修补第 %1 层前馈网络在位置 %2（“%3”）的输出，恢复了差的 %4%</translation>
    </message>
    <message>
        <source>L%1 FF</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Of the heads and feed-forwards, layer %1&apos;s feed-forward at position %2 (&apos;%3&apos;) restores most: %4%.</source>
        <translation>在所有头和前馈网络中，第 %1 层前馈网络在位置 %2（“%3”）恢复得最多：%4%。</translation>
    </message>
    <message>
        <source>Each feed-forward&apos;s output patched at one layer and position</source>
        <translation>在每一层、每个位置修补前馈网络的输出</translation>
    </message>
</context>
<context>
    <name>ResidualStreamView</name>
    <message>
        <source>L%1 attention</source>
        <translation>第 %1 层注意力</translation>
    </message>
    <message>
        <source>L%1 feed-forward</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>loss %1%2 without it</source>
        <translation>去掉它损失 %1%2</translation>
    </message>
    <message>
        <source>after the embeddings</source>
        <translation>嵌入之后</translation>
    </message>
    <message>
        <source>after block %1</source>
        <translation>第 %1 个模块之后</translation>
    </message>
    <message>
        <source>Position %1 (“%2”), %3: size %4</source>
        <translation>位置 %1（“%2”），%3：大小 %4</translation>
    </message>
    <message>
        <source>Position %1 (“%2”): %3 writes a vector of size %4</source>
        <translation>位置 %1（“%2”）：%3 写入的向量大小为 %4</translation>
    </message>
    <message>
        <source>size of the residual stream</source>
        <translation>残差流的大小</translation>
    </message>
    <message>
        <source>size of what is written</source>
        <translation>写入内容的大小</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>模块 %1</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its residual stream.</source>
        <translation>训练一个模型或打开检查点，即可查看其残差流。</translation>
    </message>
    <message>
        <source>Percentages: each half&apos;s share of what its layer writes. Knock out each part to see what the loss becomes without it.</source>
        <translation>百分比：每一半在本层写入量中所占的份额。屏蔽每个部分，可看到去掉它后损失变成多少。</translation>
    </message>
    <message>
        <source>Percentages: each half&apos;s share of what its layer writes; the loss: the validation loss without that half (Knock-out tab, step %1).</source>
        <translation>百分比：每一半在本层写入量中所占的份额；损失：去掉这一半后的验证损失（屏蔽实验标签页，第 %1 步）。</translation>
    </message>
    <message>
        <source>Every block reads the residual stream, a vector per character, and adds what its attention and its feed-forward write to it; nothing is overwritten. Top: how large the stream is after the embeddings and after each block (brighter: larger). Bottom: how much each part adds at each character; the part that writes more changes the stream more.</source>
        <translation>每个模块读取残差流（每个字符一个向量），再把它的注意力和前馈网络写出的内容加上去；原有内容不会被覆盖。上图：嵌入之后和每个模块之后残差流有多大（越亮越大）。下图：每个部分在每个字符处加入了多少；写入越多的部分，对残差流的改变越大。</translation>
    </message>
    <message>
        <source>The stream&apos;s size</source>
        <translation>残差流的大小</translation>
    </message>
    <message>
        <source>What each part writes</source>
        <translation>每个部分写入的内容</translation>
    </message>
    <message>
        <source>Knock out each part</source>
        <translation>逐个屏蔽各部分</translation>
    </message>
    <message>
        <source>Export the residual stream</source>
        <translation>导出残差流</translation>
    </message>
    <message>
        <source>The residual stream</source>
        <translation>残差流</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save both grids as a PNG or SVG picture, or every value as a CSV table</source>
        <translation>将两个网格保存为 PNG 或 SVG 图片，或将所有数值保存为 CSV 表格</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <extracomment>A layer&apos;s half, then in brackets its notes (its share of what the layer writes, the loss without it), joined by the separator below</extracomment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between a layer&apos;s notes</comment>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>RunFields</name>
    <message>
        <source>Vocabulary size</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Embedding width</source>
        <translation>嵌入宽度</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>注意力头大小</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Lowest learning rate</source>
        <translation>最低学习率</translation>
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
        <translation>梯度裁剪</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Evaluation interval</source>
        <translation>评估间隔</translation>
    </message>
    <message>
        <source>Evaluation batches</source>
        <translation>评估批次</translation>
    </message>
    <message>
        <source>Validation fraction</source>
        <translation>验证集比例</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Position embeddings</source>
        <translation>位置嵌入</translation>
    </message>
    <message>
        <source>Scaled attention</source>
        <translation>缩放注意力</translation>
    </message>
    <message>
        <source>Attention projection</source>
        <translation>注意力投影</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>Residual connections</source>
        <translation>残差连接</translation>
    </message>
    <message>
        <source>Final LayerNorm</source>
        <translation>最后的 LayerNorm</translation>
    </message>
    <message>
        <source>Feed-forward activation</source>
        <translation>前馈激活函数</translation>
    </message>
    <message>
        <source>Biases on q, k and v</source>
        <translation>q、k、v 的偏置</translation>
    </message>
    <message>
        <source>Biases</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Head bias</source>
        <translation>输出头偏置</translation>
    </message>
    <message>
        <source>Head tied to the token embedding</source>
        <translation>输出头与词元嵌入共享权重</translation>
    </message>
    <message>
        <source>Width of the token vectors (emb_size)</source>
        <translation>词元向量的宽度（emb_size）</translation>
    </message>
    <message>
        <source>Width of one attention head (head_size); the width must be a multiple of it</source>
        <translation>单个注意力头的宽度（head_size）；嵌入宽度必须是它的整数倍</translation>
    </message>
    <message>
        <source>Transformer blocks, one after the other (n_layer); 0 makes a bigram model</source>
        <translation>依次堆叠的 Transformer 块数（n_layer）；0 即二元语法模型</translation>
    </message>
    <message>
        <source>Characters the model reads at once to predict the next (sequence_len)</source>
        <translation>模型一次读入、用来预测下一个字符的字符数（sequence_len）</translation>
    </message>
    <message>
        <source>The share of activations dropped while training, 0 for none</source>
        <translation>训练时随机丢弃的激活值比例，0 表示不丢弃</translation>
    </message>
    <message>
        <source>How hard AdamW pulls the weight matrices towards zero at each step; more of it keeps a model trained on a small text from memorising it</source>
        <translation>AdamW 每一步把权重矩阵拉向零的力度；在小文本上训练时调大它，可以防止模型把文本背下来</translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation>每步的序列数</translation>
    </message>
    <message>
        <source>Peak learning rate, reached after the warm-up; a cosine decay then lowers it towards the lowest learning rate</source>
        <translation>峰值学习率，预热结束时达到；之后按余弦衰减降向最低学习率</translation>
    </message>
    <message>
        <source>Steps over which the learning rate rises to its peak</source>
        <translation>学习率升到峰值所用的步数</translation>
    </message>
    <message>
        <source>Total steps of the model&apos;s training; 0 for no limit (set a time limit then). A model that already reached it trains this many more.</source>
        <translation>模型训练的总步数；0 表示不限（此时请设置时间限制）。已达到该步数的模型会再训练这么多步。</translation>
    </message>
    <message>
        <source>Seconds after which training stops, 0 for none</source>
        <translation>训练在这么多秒后停止；0 表示不限时</translation>
    </message>
    <message>
        <source>Batches of each split per evaluation; fewer are faster and noisier</source>
        <translation>每次评估在每个数据划分上使用的批次数；越少越快，但越不稳定</translation>
    </message>
    <message>
        <source>Random seed of the first weights and of the batches</source>
        <translation>初始权重和批次抽样的随机种子</translation>
    </message>
</context>
<context>
    <name>RunsCompare</name>
    <message>
        <source>run %1 · %2</source>
        <translation>运行 %1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>runs %1 · %2 · %n seeds: mean, lowest to highest</source>
        <translation>
            <numerusform>运行 %1 · %2 · %n 个种子：均值，最低到最高</numerusform>
        </translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Tick runs in the list to compare them.</source>
        <translation>在上面的列表中勾选运行即可比较。</translation>
    </message>
    <message>
        <source>Tick another run to compare its settings and curves with this one.</source>
        <translation>再勾选一个运行，比较它与这个运行的设置和曲线。</translation>
    </message>
    <message>
        <source>These runs have the same settings and corpus.</source>
        <translation>这些运行的设置和语料完全相同。</translation>
    </message>
    <message>
        <source>What differs between these runs:</source>
        <translation>这些运行的不同之处：</translation>
    </message>
    <message>
        <source>Against:</source>
        <translation>横轴：</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>tokens seen</source>
        <translation>已见词元数</translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation>训练时间（秒）</translation>
    </message>
    <message>
        <source>Training loss (dashed)</source>
        <translation>训练损失（虚线）</translation>
    </message>
    <message>
        <source>Tick runs in the list to draw them here.</source>
        <translation>在列表中勾选运行，即在此绘制。</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
</context>
<context>
    <name>RunsHealthCompare</name>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>run %1 · %2</source>
        <translation>运行 %1 · %2</translation>
    </message>
    <message>
        <source>No health kept for %1 (trained before it was measured, or with chargpt train).</source>
        <translation>%1 没有保存训练健康数据（训练于开始测量之前，或由 chargpt train 训练）。</translation>
    </message>
    <message>
        <source>Training health of the compared runs</source>
        <translation>所比较运行的训练健康</translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>update / weight (median)</source>
        <translation>更新 / 权重（中位数）</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>update / weight
(median)</source>
        <translation>更新 / 权重
（中位数）</translation>
    </message>
    <message>
        <source>update / weight</source>
        <translation>更新 / 权重</translation>
    </message>
</context>
<context>
    <name>RunsList</name>
    <message>
        <source>%1, steps %2 to %3</source>
        <translation>%1，第 %2 步到第 %3 步</translation>
    </message>
    <message>
        <source>no end (training, or killed)</source>
        <translation>未结束（仍在训练，或被强行终止）</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>time limit</source>
        <translation>到达时限</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>发散</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <source>Run %1, from %2. Double-click to rename.</source>
        <translation>运行 %1，来自%2。双击可改名。</translation>
    </message>
    <message>
        <source>chargpt train</source>
        <translation> chargpt train </translation>
    </message>
    <message>
        <source>the app</source>
        <translation>本程序</translation>
    </message>
    <message>
        <source>%1 bytes, fingerprint %2</source>
        <translation>%1 字节，指纹 %2</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 个参数</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1（第 %2 步）</translation>
    </message>
    <message>
        <source>%1, %2 steps</source>
        <translation>%1，%2 步</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete the run “%1” (%2 steps) from the run library? Its curves are lost; its checkpoints stay on disk.</source>
        <translation>从运行库中删除运行“%1”（%2 步）？它的曲线将丢失；它的检查点仍留在磁盘上。</translation>
    </message>
    <message>
        <source>This run wrote no checkpoint.</source>
        <translation>这个运行没有写出检查点。</translation>
    </message>
    <message>
        <source>Opens %1 and trains it further.</source>
        <translation>打开 %1 并继续训练它。</translation>
    </message>
    <message>
        <source>Filter by name, corpus, preset or settings</source>
        <translation>按名称、语料、预设或设置筛选</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Best validation</source>
        <translation>最佳验证损失</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>打开检查点</translation>
    </message>
    <message>
        <source>Continue training</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
</context>
<context>
    <name>RunsPage</name>
    <message>
        <source>Every training run, from this window or from chargpt train, is kept here with its settings and curves. Tick runs to compare them: runs that differ only in their seed are drawn as their mean with a band from the lowest to the highest.</source>
        <translation>每一次训练运行，无论来自本窗口还是 chargpt train，都连同设置和曲线保存在这里。勾选运行即可比较：只有随机种子不同的运行画成均值，并带有从最低到最高的区间带。</translation>
    </message>
    <message>
        <source>There is no data folder, so runs are not kept.</source>
        <translation>没有数据文件夹，因此不保存运行。</translation>
    </message>
    <message>
        <source>The run library: %1</source>
        <translation>运行库：%1</translation>
    </message>
    <message>
        <source>The run library cannot be used: %1</source>
        <translation>无法使用运行库：%1</translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <source>Model and training</source>
        <translation>模型与训练</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>bfloat16 matrix products</source>
        <translation>矩阵乘法使用 bfloat16</translation>
    </message>
    <message>
        <source>Matrix products in bfloat16 while weights and optimizer stay float32: about twice the training speed on CPUs with AVX-512 BF16 or AMX</source>
        <translation>矩阵乘法使用 bfloat16，权重与优化器仍为 float32：在支持 AVX-512 BF16 或 AMX 的 CPU 上训练速度约为两倍</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>one per core</source>
        <translation>每个核心一个</translation>
    </message>
    <message>
        <source>Takes effect at the next start of the program</source>
        <translation>下次启动程序时生效</translation>
    </message>
    <message numerus="yes">
        <source>= %n attention head(s)</source>
        <translation>
            <numerusform>= %n 个注意力头</numerusform>
        </translation>
    </message>
    <message>
        <source>= no whole number of heads</source>
        <translation>= 注意力头数不是整数</translation>
    </message>
    <message>
        <source>Parameters: %1 · estimated memory: %2</source>
        <translation>参数量：%1 · 估计内存：%2</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>无法开始：%1</translation>
    </message>
    <message>
        <source>≈ %1 passes over the training text</source>
        <translation>≈ 遍历训练文本 %1 遍</translation>
    </message>
    <message>
        <source>Steps × batch size × context length ÷ the %1 characters of the training text: how many times the run reads each of them</source>
        <translation>步数 × 批大小 × 上下文长度 ÷ 训练文本的 %1 个字符：这次训练会把每个字符读多少遍</translation>
    </message>
    <message>
        <source>This run would read each training character about %1 times: it will memorise the text instead of learning from it. Use fewer steps or a larger text.</source>
        <translation>这次训练会把每个训练字符读约 %1 遍：模型会死记这段文本，而不是从中学到规律。请减少步数或换用更长的文本。</translation>
    </message>
    <message>
        <source>%1 (from %2 to %3; default %4)</source>
        <translation>%1（范围 %2 到 %3；默认 %4）</translation>
    </message>
    <message>
        <source>the preset&apos;s, %1 in fast</source>
        <translation>取决于预设，fast 为 %1</translation>
    </message>
</context>
<context>
    <name>SoftmaxLab</name>
    <message>
        <source>Mask</source>
        <translation>遮蔽</translation>
    </message>
    <message>
        <source>Variance</source>
        <translation>方差</translation>
    </message>
    <message>
        <source>A decoder may not look ahead: the scores of later positions are set to -inf before the softmax. Their weights come out exactly 0 and each row still sums to 1. Edit a score to see its row change.</source>
        <translation>解码器不能向后看：在 softmax 之前，之后位置的分数被设为 -inf。它们的权重恰好为 0，而每一行的和仍为 1。编辑一个分数，看看它所在的行如何变化。</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>大小：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Draw new scores</source>
        <translation>重新抽取分数</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果遮蔽</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Scores (editable)</source>
        <translation>分数（可编辑）</translation>
    </message>
    <message>
        <source>softmax of each row (last column: row sum)</source>
        <translation>每一行的 softmax（最后一列：行和）</translation>
    </message>
    <message>
        <source>Q and K are drawn from N(0, 1). Each score Q·K is a sum of H products, so its spread grows like √H; softmax of widely spread scores is nearly one-hot and its gradients vanish. Dividing by √H brings the spread back to about 1.</source>
        <translation>Q 和 K 取自 N(0, 1)。每个分数 Q·K 是 H 个乘积之和，因此其离散程度按 √H 增长；离散程度很大的分数经过 softmax 后几乎是独热的，梯度随之消失。除以 √H 可使离散程度回到 1 左右。</translation>
    </message>
    <message>
        <source>Batch B:</source>
        <translation>批大小 B：</translation>
    </message>
    <message>
        <source>Sequence T:</source>
        <translation>序列长度 T：</translation>
    </message>
    <message>
        <source>Head size H:</source>
        <translation>头大小 H：</translation>
    </message>
    <message>
        <source>Multiplier m:</source>
        <translation>乘数 m：</translation>
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
        <translation>分数</translation>
    </message>
    <message>
        <source>share of scores</source>
        <translation>分数占比</translation>
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
        <translation>x（取自 N(0, 1) 的 %1 个值）</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Masked scores (-inf above the diagonal)</source>
        <translation>遮蔽后的分数（对角线以上为 -inf）</translation>
    </message>
    <message>
        <source>Scores, no mask</source>
        <translation>分数，无遮蔽</translation>
    </message>
    <message>
        <source>The seed&apos;s example: %1</source>
        <translation>原始示例：%1</translation>
    </message>
    <message>
        <source>std(Q·Kᵀ) = &lt;b&gt;%1&lt;/b&gt; (√H = %2) &amp;nbsp;&amp;nbsp; std(Q·Kᵀ / √H) = &lt;b&gt;%3&lt;/b&gt;</source>
        <translation>std(Q·Kᵀ) = &lt;b&gt;%1&lt;/b&gt;（√H = %2）&amp;nbsp;&amp;nbsp; std(Q·Kᵀ / √H) = &lt;b&gt;%3&lt;/b&gt;</translation>
    </message>
    <message>
        <source>m = %1: largest weight %2</source>
        <translation>m = %1：最大权重 %2</translation>
    </message>
</context>
<context>
    <name>SurpriseView</name>
    <message>
        <source>↵ (newline)</source>
        <translation>↵（换行）</translation>
    </message>
    <message>
        <source>␣ (space)</source>
        <translation>␣（空格）</translation>
    </message>
    <message>
        <source>⇥ (tab)</source>
        <translation>⇥（制表符）</translation>
    </message>
    <message>
        <source>end of text</source>
        <translation>文本结束</translation>
    </message>
    <message>
        <source>%1 is not in the model&apos;s vocabulary: left out of what the model read.</source>
        <translation>%1 不在模型的词表中：模型读取时略去了它。</translation>
    </message>
    <message>
        <source>%1 is the first character: nothing before it to guess it from.</source>
        <translation>%1 是第一个字符：前面没有可用来猜它的字符。</translation>
    </message>
    <message>
        <source>%1: %2 bits (the model gave it %3)</source>
        <translation>%1：%2 比特（模型给它的概率为 %3）</translation>
    </message>
    <message>
        <source>The model&apos;s first guess.</source>
        <translation>模型的首选猜测。</translation>
    </message>
    <message>
        <source>Rank %1 among the model&apos;s guesses.</source>
        <translation>在模型的猜测中排第 %1 位。</translation>
    </message>
    <message>
        <source>Its guesses:</source>
        <translation>模型的猜测：</translation>
    </message>
    <message>
        <source>Each character is coloured by how surprised the model was to see it after the characters before it: dark = expected, bright = surprising (in bits, −log₂ p). Hover a character for the model&apos;s guesses.</source>
        <translation>每个字符按模型看到它时的意外程度着色（依据它前面的字符）：深色 = 意料之中，亮色 = 出乎意料（单位为比特，−log₂ p）。将鼠标悬停在字符上可查看模型的猜测。</translation>
    </message>
    <message>
        <source>%1 bits per character</source>
        <translation>每字符 %1 比特</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message numerus="yes">
        <source>%1 bits per character over %n character(s)</source>
        <translation>
            <numerusform>每字符 %1 比特，共 %n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>too short to score: it needs two characters the model knows</source>
        <translation>太短，无法打分：至少需要两个模型认识的字符</translation>
    </message>
    <message numerus="yes">
        <source>%n not in the vocabulary, left out</source>
        <translation>
            <numerusform>%n 个不在词表中，已略去</numerusform>
        </translation>
    </message>
    <message>
        <source>%1+ bits</source>
        <translation>%1+ 比特</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png, .svg, .html or .csv.</source>
        <translation>请选择以 .png、.svg、.html 或 .csv 结尾的文件名。</translation>
    </message>
    <message>
        <source>Colour: bits of surprise, dark = expected, bright = surprising; grey: not scored</source>
        <translation>颜色：意外程度（比特），深色 = 意料之中，亮色 = 出乎意料；灰色：未打分</translation>
    </message>
    <message>
        <source>Validation text (never trained on)</source>
        <translation>验证文本（从未用于训练）</translation>
    </message>
    <message>
        <source>Training text (what the model learns from)</source>
        <translation>训练文本（模型从中学习）</translation>
    </message>
    <message>
        <source>Your text</source>
        <translation>你的文本</translation>
    </message>
    <message>
        <source>Surprise at step %1</source>
        <translation>第 %1 步的意外度</translation>
    </message>
    <message>
        <source>Surprise</source>
        <translation>意外度</translation>
    </message>
    <message>
        <source>Export the Surprise view</source>
        <translation>导出意外度视图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;HTML page (*.html);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;HTML 网页 (*.html);;CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Load a corpus: the start of its validation part is shown here.</source>
        <translation>请加载语料：这里会显示其验证部分的开头。</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to score this text.</source>
        <translation>训练一个模型或打开检查点，即可为这段文本打分。</translation>
    </message>
    <message>
        <source>Load a corpus: as much of its training part is shown here.</source>
        <translation>请加载语料：这里会显示同样长度的训练部分。</translation>
    </message>
    <message>
        <source>Type or paste a text above to see how the model reads it.</source>
        <translation>在上方输入或粘贴文本，看看模型如何读它。</translation>
    </message>
    <message>
        <source>Train a model or open a checkpoint to see its surprise. During training this view follows the model at every snapshot while it is shown.</source>
        <translation>训练一个模型或打开检查点即可查看它的意外度。训练期间，只要此视图处于显示状态，它就会在每个快照时跟随模型更新。</translation>
    </message>
    <message>
        <source>Step %1: validation %2 bits per character, training %3.</source>
        <translation>第 %1 步：验证文本每字符 %2 比特，训练文本 %3 比特。</translation>
    </message>
    <message>
        <source>The validation text is much brighter than the training text: the model has memorised its training text more than it learned to predict text it has not seen.</source>
        <translation>验证文本比训练文本亮得多：模型更多是在背诵训练文本，而不是学会预测没见过的文本。</translation>
    </message>
    <message>
        <source>Only the first %1 characters of your text are scored.</source>
        <translation>只为你的文本的前 %1 个字符打分。</translation>
    </message>
    <message>
        <source>Each character is coloured by how surprised the model was to see it after the characters before it: dark = expected, bright = surprising, measured in bits (−log₂ of the probability the model gave it). A model that memorises its training text shows a dark training pane beside a bright validation pane. Hover a character for the model&apos;s five guesses.</source>
        <translation>每个字符按模型看到它时的意外程度着色（依据它前面的字符）：深色 = 意料之中，亮色 = 出乎意料，单位为比特（模型给它的概率取 −log₂）。背诵训练文本的模型会显示深色的训练窗格和亮色的验证窗格。将鼠标悬停在字符上可查看模型的五个猜测。</translation>
    </message>
    <message>
        <source>Bits:</source>
        <translation>比特：</translation>
    </message>
    <message>
        <source>0 bits: the model was sure of the character; the right end is the surprise of a uniform guess over the vocabulary</source>
        <translation>0 比特：模型对该字符很有把握；右端是在整个词表上均匀瞎猜时的意外度</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the panes as a PNG or SVG picture, an HTML page or a CSV table</source>
        <translation>将窗格保存为 PNG 或 SVG 图片、HTML 网页或 CSV 表格</translation>
    </message>
    <message>
        <source>Your text:</source>
        <translation>你的文本：</translation>
    </message>
    <message>
        <source>Type or paste any text to score it with the model</source>
        <translation>输入或粘贴任意文本，用模型为它打分</translation>
    </message>
    <message>
        <source>The mean surprise of the two texts at each step shown so far; the dashed line is the step the timeline below the tabs chose</source>
        <translation>两段文本在目前显示过的每一步的平均意外度；虚线是标签页下方时间线所选的步</translation>
    </message>
    <message>
        <source>validation, bits per character</source>
        <translation>验证，每字符比特数</translation>
    </message>
    <message>
        <source>training, bits per character</source>
        <translation>训练，每字符比特数</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Without %1: %2 bits (%3)</source>
        <translation>屏蔽 %1 后：%2 比特（%3）</translation>
    </message>
    <message>
        <source>without %1: %2 (%3)</source>
        <translation>屏蔽 %1 后：%2（%3）</translation>
    </message>
    <message>
        <source>%1%2 bits</source>
        <translation>%1%2 比特</translation>
    </message>
    <message>
        <source>Colour: how many more bits the model needs without %1. Red: that part helped it read this character; blue: it reads it better without; white: no difference.</source>
        <translation>颜色：屏蔽 %1 后模型多需要多少比特。红：这个部分帮模型读出了这个字符；蓝：没有它反而读得更好；白：没有差别。</translation>
    </message>
    <message>
        <source>%1 bits</source>
        <translation>%1 比特</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>不屏蔽</translation>
    </message>
    <message>
        <source>Compare without:</source>
        <translation>对比屏蔽：</translation>
    </message>
    <message>
        <source>Score the texts again with this part of the model knocked out (its output set to zero) and colour each character by how many more bits the model needs without it</source>
        <translation>屏蔽模型的这个部分（把它的输出置零）后再给文本打分，并按屏蔽后模型多需要的比特数给每个字符上色</translation>
    </message>
    <message>
        <source>Bits more without %1:</source>
        <translation>屏蔽 %1 后多出的比特：</translation>
    </message>
    <message>
        <source>The picture would be %1 x %2 pixels; a picture is at most %3 pixels tall. Export a shorter text, or as HTML or CSV.</source>
        <translation>图片将有 %1 x %2 像素；图片最高 %3 像素。请导出较短的文本，或导出为 HTML 或 CSV。</translation>
    </message>
    <message>
        <source>at step %1: %2 (%3)</source>
        <translation>第 %1 步时：%2（%3）</translation>
    </message>
    <message>
        <source>At step %1: %2 bits (%3)</source>
        <translation>第 %1 步时：%2 比特（%3）</translation>
    </message>
    <message>
        <source>Colour: how many more bits the model needed at step %1 than at step %2. Red: learned in between; blue: it read this character better then; white: no change.</source>
        <translation>颜色：模型在第 %1 步时比第 %2 步时多需要多少比特。红：在这之间学会了；蓝：那时反而读得更好；白：没有变化。</translation>
    </message>
    <message>
        <source>Bits more at step %1:</source>
        <translation>第 %1 步时多出的比特：</translation>
    </message>
    <message>
        <source>Click one to see why the model wrote it.</source>
        <translation>点击一个字符，查看模型为什么写出它。</translation>
    </message>
</context>
<context>
    <name>TimelineControls</name>
    <message>
        <source>Timeline:</source>
        <translation>时间线：</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>尚无快照</translation>
    </message>
    <message>
        <source>step %1 (%2 of %3)</source>
        <translation>第 %1 步（第 %2 个，共 %3 个）</translation>
    </message>
    <message>
        <source>run %1, %2</source>
        <translation>运行 %1，%2</translation>
    </message>
    <message>
        <source>%1, newest</source>
        <translation>%1，最新</translation>
    </message>
    <message>
        <source>The step every view shows. At the right end it follows the newest step while the model trains; anywhere else the views recompute at that step from the weights the run library keeps.</source>
        <translation>每个视图显示的步数。在最右端时，训练期间它跟随最新的一步；在其他位置时，各视图用运行库保存的该步权重重新计算。</translation>
    </message>
    <message>
        <source>A: step %1</source>
        <translation>A：第 %1 步</translation>
    </message>
    <message>
        <source>The Surprise tab colours each character by what the model learned between step %1 (A) and the step shown. Click to stop comparing.</source>
        <translation>“意外度”标签页按模型在第 %1 步（A）与所显示的步之间学到了什么给每个字符上色。点击即停止对比。</translation>
    </message>
    <message>
        <source>Mark A</source>
        <translation>标记为 A</translation>
    </message>
    <message>
        <source>Mark the step shown as A, then move the timeline: the Surprise tab colours each character by what the model learned between A and the step shown. Only steps whose weights the run keeps can be marked.</source>
        <translation>把所显示的步标记为 A，然后移动时间线：“意外度”标签页按模型在 A 与所显示的步之间学到了什么给每个字符上色。只有运行保存了权重的步才能标记。</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Train the model on the corpus with these settings</source>
        <translation>按这些设置在语料上训练模型</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>End the run (the model is kept and autosaved)</source>
        <translation>结束本次训练（模型会保留并自动保存）</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Forget the trained model and start again from random weights</source>
        <translation>丢弃已训练的模型，从随机权重重新开始</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Ready (model at step %1)</source>
        <translation>就绪（模型在第 %1 步）</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Preparing the data…</source>
        <translation>正在准备数据…</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>正在训练…</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>尚未训练</translation>
    </message>
    <message>
        <source>step %1 / %2</source>
        <translation>第 %1 / %2 步</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>loss %1 · validation %2
%3 tokens/s · elapsed %4 · ETA %5</source>
        <translation>损失 %1 · 验证 %2
%3 词元/秒 · 已用 %4 · 预计剩余 %5</translation>
    </message>
    <message>
        <source>Restore best</source>
        <translation>恢复最佳</translation>
    </message>
    <message>
        <source>Puts back the weights of the evaluation with the lowest validation loss: none yet</source>
        <translation>恢复验证损失最低那次评估时的权重：目前还没有评估</translation>
    </message>
    <message>
        <source>Put back the weights of step %1, where validation loss was lowest (%2)</source>
        <translation>恢复第 %1 步的权重，那时验证损失最低（%2）</translation>
    </message>
    <message>
        <source>The weights are those of step %1, where validation loss was lowest (%2)</source>
        <translation>当前权重就是第 %1 步的权重，那时验证损失最低（%2）</translation>
    </message>
    <message>
        <source>%1 · epoch %2</source>
        <translation>%1 · 第 %2 轮</translation>
    </message>
    <message>
        <source>model at step %1</source>
        <translation>模型在第 %1 步</translation>
    </message>
</context>
<context>
    <name>ViewExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png or .svg.</source>
        <translation>请选择以 .png 或 .svg 结尾的文件名。</translation>
    </message>
    <message>
        <source>There is nothing to draw yet.</source>
        <translation>还没有可绘制的内容。</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png, .svg or .csv.</source>
        <translation>请选择以 .png、.svg 或 .csv 结尾的文件名。</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;CSV table (*.csv)</source>
        <translation>PNG 图片 (*.png);;SVG 图片 (*.svg);;CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>This picture would be %1 x %2 pixels; a picture is at most %3 pixels a side: show fewer characters.</source>
        <translation>这张图片将有 %1 x %2 像素；图片每边最多 %3 像素：请显示更少的字符。</translation>
    </message>
    <message>
        <source>Unknown file type “%1”: use .png, .svg, .pdf or .csv.</source>
        <translation>未知的文件类型“%1”：请使用 .png、.svg、.pdf 或 .csv。</translation>
    </message>
</context>
<context>
    <name>WhyWindow</name>
    <message>
        <source>Why this character?</source>
        <translation>为什么是这个字符？</translation>
    </message>
    <message>
        <source>Attribution</source>
        <translation>归因</translation>
    </message>
    <message>
        <source>Across the kept steps</source>
        <translation>各保存步</translation>
    </message>
    <message>
        <source>Patching lab</source>
        <translation>修补实验室</translation>
    </message>
    <message>
        <source>Activation patching lab…</source>
        <translation>激活修补实验室…</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Train a character-level GPT and watch it learn.</source>
        <translation>训练一个字符级 GPT，观察它如何学习。</translation>
    </message>
    <message>
        <source>A checkpoint (.pt) to open.</source>
        <translation>要打开的检查点（.pt）。</translation>
    </message>
    <message>
        <source>Train the built-in corpus for SECONDS, print the longest stall of the window&apos;s thread as JSON and quit (a benchmark).</source>
        <translation>用内置语料训练 SECONDS 秒，以 JSON 输出窗口线程最长的停顿，然后退出（基准测试）。</translation>
    </message>
    <message>
        <source>With --measure-stall: train without the views following the model, to measure what they cost (a benchmark).</source>
        <translation>配合 --measure-stall：训练时各视图不跟随模型，用来测量它们的开销（基准测试）。</translation>
    </message>
    <message>
        <source>Open the newest run of the run library that wrote a checkpoint, move the timeline to each step it keeps, print how long the Attention tab took to show each as JSON and quit (a benchmark).</source>
        <translation>打开运行库中最新的、写过检查点的运行，把时间轴依次移到它保存的每一步，以 JSON 输出“注意力”标签页显示每一步所用的时间，然后退出（基准测试）。</translation>
    </message>
</context>
</TS>
