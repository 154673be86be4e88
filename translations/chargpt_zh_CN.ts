<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CheckpointPanel</name>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>No checkpoint open. Use File &gt; Open checkpoint… to show one.</source>
        <translation>尚未打开检查点。请使用“文件 &gt; 打开检查点…”打开一个。</translation>
    </message>
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
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>No loss history yet: open a checkpoint</source>
        <translation>暂无损失记录：请打开一个检查点</translation>
    </message>
    <message>
        <source>Drag to pan, scroll to zoom, double-click to fit the data</source>
        <translation>拖动可平移，滚轮可缩放，双击可适配全部数据</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open checkpoint…</source>
        <translation>打开检查点(&amp;O)…</translation>
    </message>
    <message>
        <source>Show the loss curves and settings of a saved model</source>
        <translation>显示已保存模型的损失曲线和设置</translation>
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
        <source>Cannot open checkpoint</source>
        <translation>无法打开检查点</translation>
    </message>
    <message>
        <source>The file “%1” could not be opened.</source>
        <translation>无法打开文件“%1”。</translation>
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
</context>
</TS>
