<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CheckpointPanel</name>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>No checkpoint open. Use File &gt; Open checkpoint… to show one.</source>
        <translation>No checkpoint open. Use File &gt; Open checkpoint… to show one.</translation>
    </message>
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
        <source>loss</source>
        <translation>loss</translation>
    </message>
    <message>
        <source>No loss history yet: open a checkpoint</source>
        <translation>No loss history yet: open a checkpoint</translation>
    </message>
    <message>
        <source>Drag to pan, scroll to zoom, double-click to fit the data</source>
        <translation>Drag to pan, scroll to zoom, double-click to fit the data</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Open checkpoint…</source>
        <translation>&amp;Open checkpoint…</translation>
    </message>
    <message>
        <source>Show the loss curves and settings of a saved model</source>
        <translation>Show the loss curves and settings of a saved model</translation>
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
        <source>Cannot open checkpoint</source>
        <translation>Cannot open checkpoint</translation>
    </message>
    <message>
        <source>The file “%1” could not be opened.</source>
        <translation>The file “%1” could not be opened.</translation>
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
</context>
</TS>
